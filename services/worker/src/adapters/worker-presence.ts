import type { Bus } from '@svc/bus';
import { capabilityWorkersKey, heldRunsKey, runtimeWorkersKey } from '@svc/contracts';
import type { PresenceStore } from '../domain/heartbeat';
import { waitForReady } from './redis-ready';

/**
 * Worker presence in Redis (design "Worker"), written on every beat with the runs the worker holds
 * (heldRunsKey, issue 15), two ways:
 * - one key per runtime a worker serves, `<BUS_PREFIX>:workers:<runtime>:<workerId>`, holding a
 *   HeartbeatValue with a TTL (for operators: who is up, where, since when);
 * - one sorted set per runtime, `runtimeWorkersKey(prefix, runtime)`, member = worker id, score =
 *   when its heartbeat lapses (ms since the epoch). "Is a `browser` worker up?" is then one
 *   `ZCOUNT <key> <now> +inf`, not a KEYS scan; and likewise one per capability it serves,
 *   `capabilityWorkersKey(prefix, slug)` (the orchestrator's requires_worker check, spec §2.1: a
 *   pool of WORKER_CAPABILITIES serves only some of its runtime's capabilities).
 * A worker that dies without cleaning up disappears when its key expires and its score passes;
 * every beat also trims members whose score has passed, so dead workers do not pile up.
 */

export function heartbeatKey(prefix: string, runtime: string, workerId: string): string {
  return `${prefix}:workers:${runtime}:${workerId}`;
}

/** The heartbeat's PresenceStore over the bus's producer connection (one MULTI per beat). */
export function createWorkerPresence(bus: Pick<Bus, 'redis' | 'prefix'>): PresenceStore {
  const { redis, prefix } = bus;
  return {
    locate: (runtime, workerId) => ({
      key: heartbeatKey(prefix, runtime, workerId),
      runtimeSet: runtimeWorkersKey(prefix, runtime),
    }),
    // The producer connection fails commands at once until it is ready (enableOfflineQueue: false).
    waitUntilReady: (maxWaitMs) => waitForReady(redis, maxWaitMs),
    async announce(workerId, beats, held, beatMs, ttlMs) {
      const pipeline = redis.multi();
      // The runs it holds (heldRunsKey): live until the next beats stop coming.
      const heldKey = heldRunsKey(prefix);
      if (held.length > 0) pipeline.zadd(heldKey, ...held.flatMap((runId) => [beatMs + ttlMs, runId]));
      pipeline.zremrangebyscore(heldKey, '-inf', beatMs);
      pipeline.pexpire(heldKey, ttlMs);
      const live = (set: string) => {
        pipeline.zadd(set, beatMs + ttlMs, workerId);
        // Members whose heartbeat lapsed (score <= now): workers that died without a ZREM.
        pipeline.zremrangebyscore(set, '-inf', beatMs);
        // The set itself goes when no worker in it has beaten for a TTL (no stale keys).
        pipeline.pexpire(set, ttlMs);
      };
      const capabilities = new Set<string>();
      for (const { runtime, value } of beats) {
        pipeline.set(heartbeatKey(prefix, runtime, workerId), JSON.stringify(value), 'PX', ttlMs);
        live(runtimeWorkersKey(prefix, runtime));
        for (const slug of Object.keys(value.slots)) capabilities.add(slug);
      }
      for (const slug of capabilities) live(capabilityWorkersKey(prefix, slug));
      await pipeline.exec();
    },
    async withdraw(workerId, runtimes, capabilities) {
      const pipeline = redis.multi();
      pipeline.del(...runtimes.map((runtime) => heartbeatKey(prefix, runtime, workerId)));
      for (const runtime of runtimes) pipeline.zrem(runtimeWorkersKey(prefix, runtime), workerId);
      for (const slug of capabilities) pipeline.zrem(capabilityWorkersKey(prefix, slug), workerId);
      await pipeline.exec();
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
