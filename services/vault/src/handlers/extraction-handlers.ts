import type { ServiceHandlers } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import type { VaultDeps } from '../domain/deps';
import { createExtraction } from '../domain/extractions/create-extraction';
import { getExtraction, listExtractions } from '../domain/extractions/list-extractions';
import { reviewExtraction } from '../domain/extractions/review-extraction';

type ExtractionMethods = 'createExtraction' | 'listExtractions' | 'getExtraction' | 'reviewExtraction';

/**
 * `rpc.vault` extraction methods (handlers/rpc.ts spreads them). Transport only: requests arrive
 * parsed against the catalog, the client id is the gateway's verified one; AppErrors (404, 409,
 * 422) travel back as themselves. Replies carry masked candidates only.
 */
export function extractionHandlers(
  deps: VaultDeps,
): Pick<ServiceHandlers<PlatformCatalog, 'vault'>, ExtractionMethods> {
  return {
    createExtraction: async ({ client_id, document }) => ({
      ok: true,
      extraction: await createExtraction(deps, { clientId: client_id, source: document }),
    }),
    listExtractions: async ({ client_id, query }) => {
      const extractions = await listExtractions(deps, client_id, query);
      return { ok: true, count: extractions.length, extractions };
    },
    getExtraction: async ({ client_id, extraction_id }) => ({
      ok: true,
      extraction: await getExtraction(deps, client_id, extraction_id),
    }),
    reviewExtraction: async ({ client_id, request_id, extraction_id, review }) => {
      const outcome = await reviewExtraction(deps, {
        clientId: client_id,
        requestId: request_id,
        extractionId: extraction_id,
        review,
      });
      return { ok: true, extraction: outcome.extraction, saved_fields: outcome.savedFields };
    },
  };
}
