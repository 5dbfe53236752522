import { createHash } from 'node:crypto';
import { Router } from 'express';
import { defineRoute } from '../middleware/method-not-allowed';

/**
 * GET /openapi.json (no auth): the machine-readable description (spec §9), serialised once at
 * start. A strong ETag lets clients and proxies revalidate with If-None-Match (304, no body).
 */
export function openApiRouter(document: object): Router {
  const body = JSON.stringify(document);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  const router = Router();
  defineRoute(router, '/openapi.json', {
    get: [
      (req, res) => {
        res.setHeader('ETag', etag);
        // Revalidate every time: the document changes with each deploy, and a 304 is cheap.
        res.setHeader('Cache-Control', 'no-cache');
        if (req.fresh) {
          res.status(304).end();
          return;
        }
        res.type('application/json').send(body);
      },
    ],
  });
  return router;
}
