import type { LedgerDb } from '@svc/db';

export interface OpenHold {
  runId: string;
  clientId: string;
  createdAt: Date;
}

/**
 * Holds with neither a capture nor a release, created before `olderThan`, oldest first, at most
 * `limit` (all clients). The orchestrator's sweeper releases those whose run was never recorded (a
 * hold committed by the wallet while the orchestrator's own transaction rolled back).
 */
export async function openHolds(db: LedgerDb, olderThan: Date, limit: number): Promise<OpenHold[]> {
  const rows = await db.$queryRaw<Array<{ run_id: string; client_id: string; created_at: Date }>>`
    SELECT h.run_id::text AS run_id, h.client_id::text AS client_id, h.created_at
    FROM wallet.ledger_entries h
    WHERE h.kind = 'hold' AND h.run_id IS NOT NULL AND h.created_at < ${olderThan}
      AND NOT EXISTS (
        SELECT 1 FROM wallet.ledger_entries s
        WHERE s.run_id = h.run_id AND s.kind IN ('capture', 'release')
      )
    ORDER BY h.created_at ASC, h.run_id ASC
    LIMIT ${limit}`;
  return rows.map((row) => ({ runId: row.run_id, clientId: row.client_id, createdAt: row.created_at }));
}
