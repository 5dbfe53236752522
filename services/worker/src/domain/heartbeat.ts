import type { Bus } from '@svc/bus';

/**
 * Worker presence: while a worker runs, Redis holds one key per runtime it serves,
 * `<BUS_PREFIX>:workers:<runtime>:<workerId>`, with a TTL refreshed well before it lapses. A worker
 * that dies without cleaning up disappears when its keys expire, so "is a `<runtime>` worker up?"
 * is "does any `<prefix>:workers:<runtime>:*` key exist?" (later issues: requires_worker, spec §2.1).
 */

/** ms: how long a key outlives its last refresh; 3 missed beats in a row mark the worker gone. */
export const HEARTBEAT_TTL_MS = 15_000;
/** ms: refresh period (TTL / 3, so one slow or failed beat does not drop the worker). */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** ms: how long the first beat waits for the bus connection (it has no offline queue: see below). */
const CONNECT_WAIT_MS = 5_000;

export function heartbeatKey(prefix: string, runtime: string, workerId: string): string {
  return `${prefix}:workers:${runtime}:${workerId}`;
}

/** What a heartbeat key holds (JSON), for operators and later schedulers. */
export interface HeartbeatValue {
  worker_id: string;
  runtime: string;
  hostname: string;
  pid: number;
  concurrency: number;
  /** ISO 8601: when this worker started. */
  started_at: string;
  /** ISO 8601: when this value was written. */
  beat_at: string;
}

export interface HeartbeatOptions {
  bus: Bus;
  workerId: string;
  runtimes: readonly string[];
  hostname: string;
  pid: number;
  concurrency: number;
  ttlMs?: number;
  intervalMs?: number;
  /** ms: how long the first beat waits for the Redis connection to come up. Default 5_000. */
  connectWaitMs?: number;
  /** Clock (tests); default Date.now. */
  now?: () => number;
}

export interface Heartbeat {
  /** The keys this worker refreshes. */
  readonly keys: readonly string[];
  /** Stops beating and deletes the keys, so a clean shutdown is visible at once (not after the TTL). */
  close(): Promise<void>;
}

/**
 * Writes the keys at once (the returned promise settles after the first beat, so a worker is
 * announced before it reports itself started), then every `intervalMs`. A failed beat (Redis down)
 * is logged and retried on the next tick: the process keeps working its jobs meanwhile.
 */
export async function startHeartbeat(options: HeartbeatOptions): Promise<Heartbeat> {
  const ttlMs = options.ttlMs ?? HEARTBEAT_TTL_MS;
  const intervalMs = options.intervalMs ?? HEARTBEAT_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const { bus } = options;
  if (options.runtimes.length === 0) throw new Error('a worker heartbeat needs at least one runtime');
  if (intervalMs >= ttlMs)
    throw new Error(`heartbeat interval (${intervalMs} ms) must be below its TTL (${ttlMs} ms)`);

  const startedAt = new Date(now()).toISOString();
  const entries = options.runtimes.map((runtime) => ({
    runtime,
    key: heartbeatKey(bus.prefix, runtime, options.workerId),
  }));
  let failing = false;

  const beat = async (): Promise<void> => {
    const beatAt = new Date(now()).toISOString();
    const pipeline = bus.redis.multi();
    for (const { runtime, key } of entries) {
      const value: HeartbeatValue = {
        worker_id: options.workerId,
        runtime,
        hostname: options.hostname,
        pid: options.pid,
        concurrency: options.concurrency,
        started_at: startedAt,
        beat_at: beatAt,
      };
      pipeline.set(key, JSON.stringify(value), 'PX', ttlMs);
    }
    try {
      await pipeline.exec();
      if (failing) bus.logger.info({ worker_id: options.workerId }, 'worker heartbeat restored');
      failing = false;
    } catch (err) {
      // Logged once per outage, not once per beat.
      if (!failing) {
        bus.logger.warn({ worker_id: options.workerId, err: errorMessage(err) }, 'worker heartbeat failed');
      }
      failing = true;
    }
  };

  // The bus producer connection fails commands at once until it is ready (enableOfflineQueue:
  // false), so a beat sent right after start-up would always fail: wait for it, boundedly.
  await waitForReady(bus.redis, options.connectWaitMs ?? CONNECT_WAIT_MS);
  await beat();
  let inFlight: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    inFlight = beat();
  }, intervalMs);
  // The heartbeat alone must not keep the process alive.
  timer.unref();

  let closing: Promise<void> | undefined;
  return {
    keys: entries.map((entry) => entry.key),
    close() {
      closing ??= (async () => {
        clearInterval(timer);
        await inFlight;
        try {
          await bus.redis.del(...entries.map((entry) => entry.key));
        } catch (err) {
          // Redis unreachable: the keys expire on their own within the TTL.
          bus.logger.warn(
            { worker_id: options.workerId, err: errorMessage(err) },
            'worker heartbeat keys not deleted',
          );
        }
      })();
      return closing;
    },
  };
}

/** Resolves when `redis` is ready or after `maxWaitMs` (the beat then fails and is logged). */
function waitForReady(redis: Bus['redis'], maxWaitMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, maxWaitMs);
    redis.once('ready', done);
  });
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
