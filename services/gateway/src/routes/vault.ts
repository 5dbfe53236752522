import {
  CreateExtractionRequest,
  DeleteVaultFieldQuery,
  ExtractionIdParams,
  FillDocumentRequest,
  ListExtractionsQuery,
  ReviewExtractionRequest,
  SaveVaultFieldRequest,
  VaultAuditQuery,
  VaultDocumentIdParams,
  VaultFieldNameParams,
  VaultNoQuery,
} from '@svc/contracts';
import { Router } from 'express';
import type { VaultService } from '../domain/vault-service';
import { authOf, type GatewayResponse } from '../locals';
import { defineRoute } from '../middleware/method-not-allowed';
import { noStore } from '../middleware/no-store';
import { resolveRequestId } from '../middleware/request-id';
import { objectBody, parseRequest } from '../middleware/validate';
import type { RouteKit } from '../route-kit';

/** Where a created extraction or filled document is read again. */
export function extractionPath(extractionId: string): string {
  return `/api/vault/extractions/${extractionId}`;
}
export function documentPath(documentId: string): string {
  return `/api/vault/documents/${documentId}`;
}

/** The request's X-Request-Id (request-id.ts set it first), which the vault's audit lines carry. */
function requestIdOf(res: GatewayResponse): string {
  return res.locals.requestId ?? resolveRequestId(undefined);
}

/**
 * The vault (spec §4.15-§4.20, decisions VL4 and VG1-VG6). Mounted at /api/vault. Each route: no-store
 * (every answer is private to one client, errors included), the key and its scope, the JSON body
 * (415/413/400, then the safe-input check), the strict contract schema (422 naming the field, never a
 * value: formatZodError quotes no value), then one `rpc.vault` call for the key's client, with the
 * request id for the audit trail. The vault answers masked values only; its AppErrors (404, 409, 422,
 * 503) pass through as they are.
 *
 * Scopes: `vault:read` reads masked state (profile, fields, extractions, audit); `vault:write` changes
 * it (fields, extractions, reviews); `vault:fill` makes and lists filled documents, the only answers
 * that lead to plaintext (their download links), so a read-only key never reaches a value (VG2).
 */
export function vaultRouter(kit: RouteKit, vault: VaultService): Router {
  const router = Router();
  const { requireAuth } = kit;

  defineRoute(router, '/profile', {
    get: [
      noStore,
      requireAuth('vault:read'),
      async (req, res) => {
        parseRequest(VaultNoQuery, req.query, 'query');
        res.json(await vault.profile(authOf(res).clientId));
      },
    ],
  });

  defineRoute(router, '/fields', {
    get: [
      noStore,
      requireAuth('vault:read'),
      async (req, res) => {
        parseRequest(VaultNoQuery, req.query, 'query');
        res.json(await vault.listFields(authOf(res).clientId));
      },
    ],
    post: [
      noStore,
      requireAuth('vault:write'),
      ...kit.jsonBody,
      async (req, res) => {
        const field = parseRequest(SaveVaultFieldRequest, objectBody(req, '(SaveVaultFieldRequest)'));
        const body = await vault.saveField({
          client_id: authOf(res).clientId,
          request_id: requestIdOf(res),
          field,
        });
        res.status(body.outcome === 'created' ? 201 : 200).json(body);
      },
    ],
  });

  defineRoute(router, '/fields/:name', {
    delete: [
      noStore,
      requireAuth('vault:write'),
      async (req, res) => {
        const { name } = parseRequest(VaultFieldNameParams, req.params);
        const query = parseRequest(DeleteVaultFieldQuery, req.query, 'query');
        res.json(
          await vault.deleteField({
            client_id: authOf(res).clientId,
            request_id: requestIdOf(res),
            name,
            ...(query.expected_version === undefined ? {} : { expected_version: query.expected_version }),
          }),
        );
      },
    ],
  });

  defineRoute(router, '/extractions', {
    get: [
      noStore,
      requireAuth('vault:read'),
      async (req, res) => {
        const query = parseRequest(ListExtractionsQuery, req.query, 'query');
        res.json(await vault.listExtractions({ client_id: authOf(res).clientId, query }));
      },
    ],
    post: [
      noStore,
      requireAuth('vault:write'),
      // The body may carry a 200,000-character document (route-kit.ts DOCUMENT_JSON_BODY_LIMIT_BYTES).
      ...kit.documentJsonBody,
      async (req, res) => {
        const { document } = parseRequest(
          CreateExtractionRequest,
          objectBody(req, '(CreateExtractionRequest)'),
        );
        const body = await vault.createExtraction({
          client_id: authOf(res).clientId,
          request_id: requestIdOf(res),
          document,
        });
        res.setHeader('Location', extractionPath(body.extraction.extraction_id));
        res.status(201).json(body);
      },
    ],
  });

  defineRoute(router, '/extractions/:extraction_id', {
    get: [
      noStore,
      requireAuth('vault:read'),
      async (req, res) => {
        const { extraction_id } = parseRequest(ExtractionIdParams, req.params);
        parseRequest(VaultNoQuery, req.query, 'query');
        res.json(await vault.getExtraction({ client_id: authOf(res).clientId, extraction_id }));
      },
    ],
  });

  defineRoute(router, '/extractions/:extraction_id/review', {
    post: [
      noStore,
      requireAuth('vault:write'),
      ...kit.jsonBody,
      async (req, res) => {
        const { extraction_id } = parseRequest(ExtractionIdParams, req.params);
        const review = parseRequest(ReviewExtractionRequest, objectBody(req, '(ReviewExtractionRequest)'));
        res.json(
          await vault.reviewExtraction({
            client_id: authOf(res).clientId,
            request_id: requestIdOf(res),
            extraction_id,
            review,
          }),
        );
      },
    ],
  });

  defineRoute(router, '/fill-document', {
    post: [
      noStore,
      requireAuth('vault:fill'),
      ...kit.documentJsonBody,
      async (req, res) => {
        const request = parseRequest(FillDocumentRequest, objectBody(req, '(FillDocumentRequest)'));
        const body = await vault.fillDocument({
          client_id: authOf(res).clientId,
          request_id: requestIdOf(res),
          // The artifact's download link is built on it, as for run artifacts.
          base_url: kit.publicBaseUrl(req),
          request,
        });
        res.setHeader('Location', documentPath(body.document.document_id));
        res.status(201).json(body);
      },
    ],
  });

  defineRoute(router, '/documents', {
    get: [
      noStore,
      requireAuth('vault:fill'),
      async (req, res) => {
        parseRequest(VaultNoQuery, req.query, 'query');
        const base_url = kit.publicBaseUrl(req);
        res.json(await vault.listDocuments({ client_id: authOf(res).clientId, base_url }));
      },
    ],
  });

  defineRoute(router, '/documents/:document_id', {
    get: [
      noStore,
      requireAuth('vault:fill'),
      async (req, res) => {
        const { document_id } = parseRequest(VaultDocumentIdParams, req.params);
        parseRequest(VaultNoQuery, req.query, 'query');
        const base_url = kit.publicBaseUrl(req);
        res.json(await vault.getDocument({ client_id: authOf(res).clientId, base_url, document_id }));
      },
    ],
  });

  defineRoute(router, '/audit', {
    get: [
      noStore,
      requireAuth('vault:read'),
      async (req, res) => {
        const query = parseRequest(VaultAuditQuery, req.query, 'query');
        res.json(await vault.audit({ client_id: authOf(res).clientId, query }));
      },
    ],
  });

  return router;
}
