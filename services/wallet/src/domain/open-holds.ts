import { type LedgerDb, Prisma } from '@svc/db';

export interface OpenHold {
  runId: string;
  clientId: string;
  createdAt: Date;
}

/** Where the previous page ended: holds strictly after it in (created_at, run_id) order. */
export interface OpenHoldCursor {
  createdAt: Date;
  runId: string;
}

/**
 * Holds with neither a capture nor a release, created before `olderThan` (and after `after`), oldest
 * first, at most `limit` (all clients). The orchestrator's sweeper releases those whose run was never
 * recorded (a hold committed by the wallet while the orchestrator's own transaction rolled back).
 * Read from `wallet.open_holds` (kept by the ledger's insert trigger, docs/decisions.md W7): only
 * runs in flight, paged by its (created_at, run_id) index from the cursor, so a pass costs `limit`
 * rows however long the ledger is.
 */
export async function openHolds(
  db: LedgerDb,
  olderThan: Date,
  limit: number,
  after?: OpenHoldCursor,
): Promise<OpenHold[]> {
  const afterCursor =
    after === undefined
      ? Prisma.empty
      : Prisma.sql`AND (h.created_at, h.run_id) > (${after.createdAt}, ${after.runId}::uuid)`;
  const rows = await db.$queryRaw<Array<{ run_id: string; client_id: string; created_at: Date }>>`
    SELECT h.run_id::text AS run_id, h.client_id::text AS client_id, h.created_at
    FROM wallet.open_holds h
    WHERE h.created_at < ${olderThan} ${afterCursor}
    ORDER BY h.created_at ASC, h.run_id ASC
    LIMIT ${limit}`;
  return rows.map((row) => ({ runId: row.run_id, clientId: row.client_id, createdAt: row.created_at }));
}
