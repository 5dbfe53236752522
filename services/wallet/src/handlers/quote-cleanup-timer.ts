import type { PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import { deleteExpiredUnusedQuotes } from '../domain/quote-cleanup';

export interface QuoteCleanupTimerOptions {
  prisma: PrismaClient;
  logger: Logger;
  /** ms between the end of one pass and the start of the next (QUOTE_CLEANUP_INTERVAL_MS). */
  everyMs: number;
  /** ms past `expires_at` before an unused quote goes (QUOTE_CLEANUP_GRACE_MS). */
  graceMs: number;
}

/**
 * Runs deleteExpiredUnusedQuotes every `everyMs` in this process (issue 13: stored quotes that
 * expire are cleaned up). A plain timer rather than a BullMQ schedule: the pass is idempotent and
 * safe to run in every replica at once (SKIP LOCKED), and it needs nothing from Redis. A failed pass
 * (PostgreSQL unavailable) is logged and the next one tries again: it never ends the process.
 * `close` stops the timer and waits for a pass in progress.
 */
export function startQuoteCleanup(options: QuoteCleanupTimerOptions): {
  name: string;
  close(): Promise<void>;
} {
  const { prisma, logger, everyMs, graceMs } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  const pass = async (): Promise<void> => {
    try {
      const deleted = await deleteExpiredUnusedQuotes(prisma, { graceMs });
      if (deleted > 0) logger.info({ deleted }, 'expired unused quotes deleted');
    } catch (err) {
      logger.warn({ err }, 'quote clean-up pass failed; the next pass tries again');
    }
  };
  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => {
      running = pass().finally(() => {
        running = undefined;
        schedule();
      });
    }, everyMs);
    // The timer alone must not keep the process alive (shutdown closes it anyway).
    timer.unref();
  };
  schedule();

  return {
    name: 'quote clean-up',
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await running;
    },
  };
}
