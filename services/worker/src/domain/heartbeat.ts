import { type Bus, runtimeWorkersKey } from '@svc/bus';
import { waitForReady } from './redis-ready';

/**
 * Worker presence, two ways, both refreshed every beat:
 * - one key per runtime it serves, `<BUS_PREFIX>:workers:<runtime>:<workerId>`, holding a
 *   HeartbeatValue with a TTL (for operators: who is up, where, since when);
 * - one sorted set per runtime, `runtimeWorkersKey(prefix, runtime)`, member = worker id, score =
 *   when its heartbeat lapses (ms since the epoch). "Is a `browser` worker up?" is then one
 *   `ZCOUNT <key> <now> +inf` (the orchestrator's requires_worker check, spec §2.1), not a KEYS scan.
 * A worker that dies without cleaning up disappears when its key expires and its score passes;
 * every beat also trims members whose score has passed, so dead workers do not pile up.
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
  /** The per-runtime sorted sets this worker is a member of. */
  readonly runtimeSets: readonly string[];
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
    runtimeSet: runtimeWorkersKey(bus.prefix, runtime),
  }));
  let failing = false;

  const beat = async (): Promise<void> => {
    const beatMs = now();
    const beatAt = new Date(beatMs).toISOString();
    const pipeline = bus.redis.multi();
    for (const { runtime, key, runtimeSet } of entries) {
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
      pipeline.zadd(runtimeSet, beatMs + ttlMs, options.workerId);
      // Members whose heartbeat lapsed (score <= now): workers that died without a ZREM.
      pipeline.zremrangebyscore(runtimeSet, '-inf', beatMs);
      // The set itself goes when no worker of the runtime has beaten for a TTL (no stale keys).
      pipeline.pexpire(runtimeSet, ttlMs);
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
    runtimeSets: entries.map((entry) => entry.runtimeSet),
    close() {
      closing ??= (async () => {
        clearInterval(timer);
        await inFlight;
        try {
          const pipeline = bus.redis.multi();
          pipeline.del(...entries.map((entry) => entry.key));
          for (const { runtimeSet } of entries) pipeline.zrem(runtimeSet, options.workerId);
          await pipeline.exec();
        } catch (err) {
          // Redis unreachable: the keys expire and the scores lapse on their own within the TTL.
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

/**
 * Workers of `runtime` whose heartbeat has not lapsed at `nowMs` (score > now), as the orchestrator
 * counts them (design "Quote": worker_available).
 */
export async function countLiveWorkers(
  redis: Bus['redis'],
  prefix: string,
  runtime: string,
  nowMs: number = Date.now(),
): Promise<number> {
  return redis.zcount(runtimeWorkersKey(prefix, runtime), `(${nowMs}`, '+inf');
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
