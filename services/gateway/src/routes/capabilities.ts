import { apiOperation } from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
import type { CatalogReader } from '../ports';
import { route } from '../routing/route';

/**
 * Discovery, spec §4.1 and §4.2; no authentication. Both answers are the same for every caller and
 * come from the catalog cache: public, cacheable for as long as the gateway keeps them.
 */
export function capabilityRoutes(catalog: CatalogReader) {
  const cacheControl = () => ({ 'Cache-Control': `public, max-age=${catalog.maxAgeSeconds}` });
  return {
    listCapabilities: route(apiOperation('listCapabilities'), async ({ query }) => {
      const body = await catalog.search(query);
      return { status: 200, body, headers: cacheControl() };
    }),
    describeCapability: route(
      apiOperation('describeCapability'),
      async ({ params }) => {
        const body = await catalog.describe(params.slug);
        return { status: 200, body, headers: cacheControl() };
      },
      {
        // Anything that is not a well-formed slug cannot be a known one: the same 404 as an unknown
        // slug (decisions G1; simpler for clients than a 422 that only says "bad shape").
        invalidPath: (params) =>
          new NotFoundError(`unknown capability: ${String(params.slug).slice(0, 100)}`),
      },
    ),
  };
}
