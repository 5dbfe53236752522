import type { VaultAuditEvent, VaultAuditPurpose, VaultAuditQuery, VaultAuditResponse } from '@svc/contracts';
import type { VaultDeps } from './deps';

/**
 * `rpc.vault.audit`: the client's decryptions, newest first. The cursor is the id of the last event
 * of the previous page (ids only grow), so a page never repeats or skips an event while new ones
 * are written.
 */
// The largest bigint id: a cursor the query schema lets through (19 digits) may be larger.
const MAX_ID = 9_223_372_036_854_775_807n;

export async function auditTrail(
  deps: Pick<VaultDeps, 'prisma'>,
  clientId: string,
  query: VaultAuditQuery,
): Promise<Omit<VaultAuditResponse, 'ok'>> {
  const rows = await deps.prisma.vaultAuditEvent.findMany({
    where: {
      clientId,
      ...(query.cursor === undefined ? {} : { id: { lt: minBigInt(BigInt(query.cursor), MAX_ID) } }),
    },
    orderBy: { id: 'desc' },
    // One more than asked: whether a next page exists without a second query.
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const events: VaultAuditEvent[] = page.map((row) => ({
    event_id: row.id.toString(),
    at: row.at.toISOString(),
    // Written only from VaultAuditPurpose values (recordDecryption).
    purpose: row.purpose as VaultAuditPurpose,
    field: row.field,
    key_version: row.keyVersion,
    subject_id: row.subjectId,
    request_id: row.requestId,
  }));
  const last = page.at(-1);
  return {
    count: events.length,
    events,
    ...(rows.length > query.limit && last ? { next_cursor: last.id.toString() } : {}),
  };
}

function minBigInt(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
