import { type Bus, runScheduledJob, type ServiceHandlers } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import type { Closable } from '@svc/service-kit';
import type { VaultDeps } from '../domain/deps';
import { fillDocument } from '../domain/documents/fill-document';
import { getDocument, listDocuments } from '../domain/documents/list-documents';
import { sweepVault } from '../domain/documents/sweep';

type DocumentMethods = 'fillDocument' | 'listDocuments' | 'getDocument';

/**
 * `rpc.vault` document methods (handlers/rpc.ts spreads them). Transport only; the filled bytes
 * never ride the bus: the reply carries the artifact's signed link.
 */
export function documentHandlers(
  deps: VaultDeps,
): Pick<ServiceHandlers<PlatformCatalog, 'vault'>, DocumentMethods> {
  return {
    fillDocument: async ({ client_id, request_id, base_url, request }) => ({
      ok: true,
      document: await fillDocument(deps, {
        clientId: client_id,
        requestId: request_id,
        baseUrl: base_url,
        request,
      }),
    }),
    listDocuments: async ({ client_id, base_url }) => {
      const documents = await listDocuments(deps, client_id, base_url);
      return { ok: true, count: documents.length, documents };
    },
    getDocument: async ({ client_id, base_url, document_id }) => ({
      ok: true,
      document: await getDocument(deps, client_id, document_id, base_url),
    }),
  };
}

/**
 * The `vault.sweep` worker and its schedule (as the uploads service's cleanup): one job every
 * `everyMs` for all replicas (a BullMQ job scheduler, saved again when Redis comes back empty),
 * processed one at a time here; the pass is idempotent.
 */
export async function startSweep(
  bus: Bus<PlatformCatalog>,
  deps: VaultDeps,
  everyMs: number,
): Promise<Closable> {
  const job = await runScheduledJob(bus, 'vault.sweep', everyMs, async () => {
    const result = await sweepVault(deps);
    if (result.expired_extractions + result.deleted_documents > 0)
      deps.logger.info(result, 'vault sweep pass');
    return result;
  });
  return { name: 'sweep worker', close: () => job.close() };
}
