import type { Logger } from '@svc/log';
import type { Redis } from 'ioredis';
import { closeWithin } from '../closable';
import { createErrorLogLimiter } from '../redis';

/** s: how long one BLMPOP blocks; an idle responder re-issues it this often (cheap), and close()
 * waits at most this long when it cannot unblock the pop (its connection id is not known yet). */
const BLOCK_S = 2;
/** ms: pause after a failed pop (not a dropped connection: ioredis re-sends those itself). */
const RETRY_PAUSE_MS = 200;

export interface RequestLoopOptions {
  /** The loop's own connection (a blocking pop holds it): role `worker`, so a pop waits out a restart. */
  blocking: Redis;
  /** A connection for CLIENT UNBLOCK at close (the producer). */
  control: () => Redis;
  listKey: string;
  concurrency: number;
  /** Runs one request (never rejects: failures become replies or log lines). */
  handle: (raw: string) => Promise<void>;
  logger: Logger;
}

export interface RequestLoop {
  /** Resolves once the blocking connection is up. */
  ready: Promise<void>;
  /** Stops popping, then waits for running handlers up to `timeoutMs`; false when some were still running. */
  stop(timeoutMs: number): Promise<boolean>;
}

/**
 * Pops requests from `listKey` (oldest first: callers LPUSH, the loop pops RIGHT) as many at a time
 * as there are free handler slots, and runs them concurrently, at most `concurrency` at once. Each
 * request is popped by exactly one responder; one popped by a responder that then dies is lost and
 * its caller times out (503), as a reply lost with Redis is.
 */
export function startRequestLoop(options: RequestLoopOptions): RequestLoop {
  const { blocking, listKey, concurrency, logger } = options;
  const limiter = createErrorLogLimiter();
  const running = new Set<Promise<void>>();
  let stopping = false;
  let popping = false;
  /** CLIENT ID of the blocking connection, so close() can unblock its pop; fetched after each connect. */
  let connectionId: number | undefined;
  let needId = true;
  let wakeUp: (() => void) | undefined;

  // A new connection has a new id (the first one is asked for with the first pop, queued until ready).
  let connectedBefore = false;
  blocking.on('ready', () => {
    if (connectedBefore) needId = true;
    connectedBefore = true;
  });
  const ready = new Promise<void>((resolve) => {
    if (blocking.status === 'ready') resolve();
    else blocking.once('ready', () => resolve());
  });

  const slotFreed = () =>
    new Promise<void>((resolve) => {
      wakeUp = resolve;
    });
  const wake = () => {
    const resolve = wakeUp;
    wakeUp = undefined;
    resolve?.();
  };

  const run = (raw: string) => {
    const task = options
      .handle(raw)
      // handle() answers every failure itself; this is the last guard against an unhandled rejection.
      .catch((err: unknown) => logger.error({ err }, 'rpc: request handling failed'))
      .finally(() => {
        running.delete(task);
        wake();
      });
    running.add(task);
  };

  const loop = (async () => {
    while (!stopping) {
      const free = concurrency - running.size;
      if (free <= 0) {
        await slotFreed();
        continue;
      }
      if (needId) {
        needId = false;
        // Sent just ahead of the pop on the same connection: answered before the pop blocks.
        blocking.client('ID').then(
          (id) => {
            connectionId = Number(id);
          },
          () => {
            needId = true;
          },
        );
      }
      let popped: [string, string[]] | null;
      try {
        popping = true;
        popped = await blocking.blmpop(BLOCK_S, 1, listKey, 'RIGHT', 'COUNT', free);
      } catch (err) {
        if (stopping) break;
        const verdict = limiter.record();
        if (verdict.log) {
          logger.warn(
            { err: err instanceof Error ? err.message : String(err), suppressed: verdict.suppressed },
            'rpc: could not take requests',
          );
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
        continue;
      } finally {
        popping = false;
      }
      limiter.reset();
      // Popped requests are run even when stopping: they are ours alone now.
      for (const raw of popped?.[1] ?? []) run(raw);
    }
  })();

  /** Ends a pop in flight at once (it returns nothing); false when that cannot be done. */
  const unblock = async (): Promise<boolean> => {
    if (!popping) return true;
    if (connectionId === undefined || needId) return false;
    try {
      return (await options.control().client('UNBLOCK', connectionId)) === 1;
    } catch {
      return false;
    }
  };

  return {
    ready,
    async stop(timeoutMs) {
      stopping = true;
      wake();
      if (!(await unblock()) && blocking.status !== 'ready') {
        // Redis is unreachable: the pop cannot return anything, drop its connection now.
        blocking.disconnect();
      }
      return closeWithin(async () => {
        await loop;
        await Promise.all(running);
      }, timeoutMs);
    },
  };
}
