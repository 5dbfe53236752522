import type { ListExtractionsQuery, VaultExtraction } from '@svc/contracts';
import type { Prisma } from '@svc/db';
import { NotFoundError } from '@svc/errors';
import type { VaultDeps } from '../deps';
import { EXTRACTION_VIEW_SELECT, extractionView } from './extraction-view';

/**
 * Which rows show a status: `pending` past its time shows `expired` until the sweep makes it so
 * (extraction-view.ts effectiveStatus), so the filter asks for the same.
 */
function statusWhere(status: ListExtractionsQuery['status'], now: Date): Prisma.VaultExtractionWhereInput {
  switch (status) {
    case undefined:
      return {};
    case 'pending':
      return { status: 'pending', expiresAt: { gt: now } };
    case 'expired':
      return { OR: [{ status: 'expired' }, { status: 'pending', expiresAt: { lte: now } }] };
    case 'reviewed':
      return { status: 'reviewed' };
  }
}

/** `rpc.vault.listExtractions` (spec §4.18): the client's extractions, newest first, masked. */
export async function listExtractions(
  deps: Pick<VaultDeps, 'prisma' | 'now'>,
  clientId: string,
  query: ListExtractionsQuery,
): Promise<VaultExtraction[]> {
  const now = deps.now();
  const rows = await deps.prisma.vaultExtraction.findMany({
    where: { clientId, ...statusWhere(query.status, now) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit,
    select: EXTRACTION_VIEW_SELECT,
  });
  return rows.map((row) => extractionView(row, now));
}

export function unknownExtraction(extractionId: string): NotFoundError {
  return new NotFoundError(`unknown extraction_id: ${extractionId}`);
}

/** `rpc.vault.getExtraction`: the client's extraction; another client's is the same 404 as an unknown one. */
export async function getExtraction(
  deps: Pick<VaultDeps, 'prisma' | 'now'>,
  clientId: string,
  extractionId: string,
): Promise<VaultExtraction> {
  const row = await deps.prisma.vaultExtraction.findFirst({
    where: { id: extractionId, clientId },
    select: EXTRACTION_VIEW_SELECT,
  });
  if (row === null) throw unknownExtraction(extractionId);
  return extractionView(row, deps.now());
}
