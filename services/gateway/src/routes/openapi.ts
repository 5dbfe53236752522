import { Router } from 'express';
import { serveJsonDocument } from './json-document';

/**
 * GET /openapi.json (no auth): the machine-readable description (spec §9), serialised once at
 * start. A strong ETag lets clients and proxies revalidate with If-None-Match (304, no body).
 */
export function openApiRouter(document: object): Router {
  const router = Router();
  serveJsonDocument(router, '/openapi.json', JSON.stringify(document));
  return router;
}
