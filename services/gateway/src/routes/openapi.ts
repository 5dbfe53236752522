import { apiOperation } from '@svc/contracts';
import { rawRoute } from '../routing/route';
import { jsonDocument } from './json-document';

/**
 * GET /openapi.json (no auth): the machine-readable description (spec §9), serialised once at
 * start. A strong ETag lets clients and proxies revalidate with If-None-Match (304, no body).
 */
export function openApiRoutes(document: object) {
  return {
    openApiDocument: rawRoute(apiOperation('openApiDocument'), jsonDocument(JSON.stringify(document))),
  };
}
