import { CapabilitySlugParams, ListCapabilitiesQuery } from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
import { Router } from 'express';
import type { GatewayResponse } from '../locals';
import { defineRoute } from '../middleware/method-not-allowed';
import { parseRequest } from '../middleware/validate';
import type { CatalogReader } from '../ports';

function setCacheControl(res: GatewayResponse, maxAgeSeconds: number): void {
  // Public: list and describe are the same for every caller and need no key (spec §4.1, §4.2).
  res.setHeader('Cache-Control', `public, max-age=${maxAgeSeconds}`);
}

/**
 * Discovery, spec §4.1 and §4.2; no authentication. Mounted at /api/capabilities, after the crt
 * run and quote/run routers (quote-run.ts). Upload sessions (§4.6) come with the uploads issue.
 */
export function capabilitiesRouter(catalog: CatalogReader): Router {
  const router = Router();

  defineRoute(router, '/', {
    get: [
      async (req, res) => {
        const query = parseRequest(ListCapabilitiesQuery, req.query, 'query');
        const answer = await catalog.search(query);
        setCacheControl(res, catalog.maxAgeSeconds);
        res.json(answer);
      },
    ],
  });

  defineRoute(router, '/:slug', {
    get: [
      async (req, res) => {
        // Anything that is not a well-formed slug cannot be a known one: the same 404 as an unknown
        // slug (simpler for clients than a 422 that only says "bad shape").
        const params = CapabilitySlugParams.safeParse(req.params);
        if (!params.success) {
          throw new NotFoundError(`unknown capability: ${String(req.params.slug).slice(0, 100)}`);
        }
        const answer = await catalog.describe(params.data.slug);
        setCacheControl(res, catalog.maxAgeSeconds);
        res.json(answer);
      },
    ],
  });

  return router;
}
