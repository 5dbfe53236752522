import type { PrismaClient } from '@svc/db';

/** ms: default QUOTE_CLEANUP_INTERVAL_MS: one pass a minute. */
export const DEFAULT_QUOTE_CLEANUP_INTERVAL_MS = 60_000;
/**
 * ms: default QUOTE_CLEANUP_GRACE_MS: an unused quote is deleted one hour after it expired. A quote
 * cannot start a run once expired (decisions Q7); the hour only keeps it visible to an operator
 * looking into a run that was refused as expired.
 */
export const DEFAULT_QUOTE_CLEANUP_GRACE_MS = 60 * 60_000;
/** Rows one DELETE removes at most: short statements, short row locks. */
export const QUOTE_CLEANUP_BATCH = 1_000;
/** Batches one pass runs at most (10,000 quotes): a pass stays bounded whatever the backlog. */
export const QUOTE_CLEANUP_MAX_BATCHES = 10;

export interface QuoteCleanupOptions {
  /** ms past `expires_at` before an unused quote is deleted. */
  graceMs: number;
  now?: Date;
  batchSize?: number;
  maxBatches?: number;
}

/**
 * Deletes quotes that expired more than `graceMs` ago and that no run used (issue 13: every quote
 * is stored, so a burst of quotes nobody runs must not stay for ever). Kept: a quote issued for a
 * run or named by one (`detail.used_by_run` true: a run's quote stays for its receipt), a quote
 * with a ledger line under its id (a paid run's hold, capture or release), and a quote stored
 * before the mark existed (`used_by_run` absent: nothing says whether a run used it).
 *
 * Bounded: at most `maxBatches` DELETEs of `batchSize` rows, each choosing its rows with
 * `FOR UPDATE SKIP LOCKED`, so wallet replicas sweeping at once split the work instead of waiting
 * on each other. Idempotent. Returns how many quotes were deleted.
 *
 * Cost: the candidates are read through the partial index `quotes_unused_expires_at_idx`
 * (`(expires_at) WHERE detail->>'used_by_run' = 'false'`, migration 20261126080000), so each batch
 * is an index range scan however many quotes are stored.
 */
export async function deleteExpiredUnusedQuotes(
  prisma: PrismaClient,
  options: QuoteCleanupOptions,
): Promise<number> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - options.graceMs);
  const batchSize = options.batchSize ?? QUOTE_CLEANUP_BATCH;
  const maxBatches = options.maxBatches ?? QUOTE_CLEANUP_MAX_BATCHES;
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const count = await prisma.$executeRaw`
      DELETE FROM wallet.quotes
       WHERE id IN (
         SELECT q.id
           FROM wallet.quotes q
          WHERE q.expires_at < ${cutoff}
            AND q.detail->>'used_by_run' = 'false'
            AND NOT EXISTS (SELECT 1 FROM wallet.ledger_entries l WHERE l.run_id = q.id)
          LIMIT ${batchSize}
          FOR UPDATE SKIP LOCKED)`;
    deleted += count;
    if (count < batchSize) break;
  }
  return deleted;
}
