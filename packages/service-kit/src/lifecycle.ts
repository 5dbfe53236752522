import type { Logger } from '@svc/log';
import type { Closable } from './closable';

export interface LifecycleOptions {
  /** Service name (process title). */
  name: string;
  logger: Logger;
  /**
   * Builds the service and returns what to close at shutdown, IN CREATION ORDER: Redis/Prisma
   * first, then queues and the bus, then RPC responders and workers, then HTTP servers. They are
   * closed in reverse, so a stopping service first stops taking traffic (HTTP), then finishes and
   * stops its consumers, and only then drops the connections they were using.
   */
  start: () => Promise<Closable[]> | Closable[];
  /** ms: budget for the whole shutdown (SHUTDOWN_TIMEOUT_MS). Default 10_000. */
  shutdownTimeoutMs?: number;
}

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/**
 * ms: a closable whose turn comes after the budget ran out still gets this long, so a slow HTTP
 * drain does not keep the Redis/Prisma connections from being closed cleanly.
 */
const MIN_CLOSE_MS = 200;

/**
 * The whole life of a service, minus the process: start, wait for `stop` (a signal name, from
 * `runService` or a test), close everything in reverse order. Resolves the exit code: 0 after a
 * clean shutdown, 1 if start failed or any close failed or overran the budget. Never rejects.
 */
export async function runLifecycle(options: LifecycleOptions, stop: Promise<string>): Promise<number> {
  const { logger } = options;
  let closables: Closable[];
  try {
    closables = await options.start();
  } catch (err) {
    logger.fatal({ err }, 'start failed');
    return 1;
  }
  logger.info('started');
  const signal = await stop;
  logger.info({ signal }, 'shutting down');
  const clean = await closeInReverse(
    closables,
    options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
    logger,
  );
  logger.info({ clean }, 'stopped');
  return clean ? 0 : 1;
}

/** Closes `closables` last-first, one at a time, within `budgetMs` overall. True if all closed in time. */
export async function closeInReverse(
  closables: readonly Closable[],
  budgetMs: number,
  logger: Logger,
): Promise<boolean> {
  const deadline = Date.now() + budgetMs;
  let clean = true;
  for (const [index, closable] of [...closables.entries()].reverse()) {
    const label = closable.name ?? `closable #${index}`;
    const timeoutMs = Math.max(deadline - Date.now(), MIN_CLOSE_MS);
    const outcome = await closeBounded(closable, timeoutMs);
    if (outcome === 'closed') continue;
    clean = false;
    if (outcome === 'timeout') logger.error({ closable: label, timeout_ms: timeoutMs }, 'close timed out');
    else logger.error({ closable: label, err: outcome.error }, 'close failed');
  }
  return clean;
}

async function closeBounded(
  closable: Closable,
  timeoutMs: number,
): Promise<'closed' | 'timeout' | { error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  // Promise.resolve().then: a close() that throws synchronously counts as a failed close too.
  const closed = Promise.resolve()
    .then(() => closable.close())
    .then(
      () => 'closed' as const,
      (error: unknown) => ({ error }),
    );
  try {
    return await Promise.race([closed, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
