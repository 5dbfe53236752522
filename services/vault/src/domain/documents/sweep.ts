import type { VaultDeps } from '../deps';
import { expireExtractions } from '../extractions/expire-extractions';
import { documentStorageKey } from './document-view';

/** Documents deleted per pass: bounds one pass's work; the next pass goes on. */
export const DOCUMENT_SWEEP_BATCH = 500;

export interface SweepResult {
  expired_extractions: number;
  deleted_documents: number;
}

/**
 * One `vault.sweep` pass (docs/decisions.md VE7): expires pending extractions past their time
 * (candidates' ciphertexts destroyed) and deletes documents past their retention. Idempotent and
 * safe on several replicas at once.
 */
export async function sweepVault(
  deps: Pick<VaultDeps, 'prisma' | 'store' | 'logger' | 'now'>,
): Promise<SweepResult> {
  return {
    expired_extractions: await expireExtractions(deps),
    deleted_documents: await deleteExpiredDocuments(deps),
  };
}

/**
 * The object first, then the row: a delete that fails keeps the row, so the next pass tries again
 * (deleting an object that is already gone is no error). The artifact's row in `uploads.artifacts`
 * is the uploads service's: its download answers 404 once the object is gone, and its own retention
 * removes the row (docs/decisions.md VE9).
 */
export async function deleteExpiredDocuments(
  deps: Pick<VaultDeps, 'prisma' | 'store' | 'logger' | 'now'>,
): Promise<number> {
  const due = await deps.prisma.vaultDocument.findMany({
    where: { expiresAt: { lte: deps.now() } },
    select: { id: true },
    orderBy: { expiresAt: 'asc' },
    take: DOCUMENT_SWEEP_BATCH,
  });
  let deleted = 0;
  for (const { id } of due) {
    try {
      await deps.store.delete(documentStorageKey(id));
    } catch (err) {
      deps.logger.error(
        { document_id: id, err: err instanceof Error ? err.message : String(err) },
        'expired vault document: object not deleted; retried next pass',
      );
      continue;
    }
    const removed = await deps.prisma.vaultDocument.deleteMany({ where: { id } });
    deleted += removed.count;
  }
  return deleted;
}
