import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ServiceReadiness } from '@svc/contracts';
import { type Bus, busInternals } from './bus';
import { serviceInstancesKey } from './names';

/**
 * Which service instances are ready, shared through Redis so the gateway's /readyz can say, in one
 * round trip, which backing services are up (issue 13: a crash-looping service shows as not ready
 * while the others keep serving). Each instance reports every `intervalMs` (the health server does
 * it, with the result of its own /readyz checks): ready refreshes its member of
 * `serviceInstancesKey(prefix, service)` with a score of now + TTL; not ready removes it. An
 * instance that dies without a word drops out when its score passes, within the TTL. The same
 * shape as the workers' runtime sets (decisions Q6); scores are the writers' clocks, so hosts keep
 * their clocks within a few seconds of each other (NTP), as for those.
 */

/** ms: how long one ready report counts; 3 missed reports in a row and the instance is not ready. */
export const SERVICE_PRESENCE_TTL_MS = 15_000;
/** ms: how often an instance reports (TTL / 3: one slow or failed report does not drop it). */
export const SERVICE_PRESENCE_INTERVAL_MS = 5_000;
/** ms: how long a report or a read waits for a producer connection still being made. */
const CONNECT_WAIT_MS = 1_000;

/** One instance's reports (what `startHealthServer`'s `presence` option takes). */
export interface ServicePresence {
  /** ms between two reports. */
  readonly intervalMs: number;
  /** Ready: (re)announce this instance until now + TTL. Not ready: take it out at once. */
  report(ready: boolean): Promise<void>;
  /** Out at once (a clean shutdown is seen immediately, not after the TTL). */
  withdraw(): Promise<void>;
}

export interface ServicePresenceOptions {
  /** Unique per process; default `<hostname>-<pid>-<random>`. */
  instanceId?: string;
  ttlMs?: number;
  intervalMs?: number;
  /** Clock (tests); default Date.now. */
  now?: () => number;
}

/** Throws the first error of a MULTI/pipeline reply (ioredis reports them per command, not by rejecting). */
function repliesOf(replies: Array<[Error | null, unknown]> | null): unknown[] {
  if (replies === null) throw new Error('Redis transaction aborted');
  return replies.map(([err, reply]) => {
    if (err !== null) throw err;
    return reply;
  });
}

export function servicePresence(
  bus: Bus,
  service: string,
  options: ServicePresenceOptions = {},
): ServicePresence {
  const ttlMs = options.ttlMs ?? SERVICE_PRESENCE_TTL_MS;
  const intervalMs = options.intervalMs ?? SERVICE_PRESENCE_INTERVAL_MS;
  if (intervalMs >= ttlMs)
    throw new Error(`presence interval (${intervalMs} ms) must be below its TTL (${ttlMs} ms)`);
  const now = options.now ?? Date.now;
  const instanceId = options.instanceId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const key = serviceInstancesKey(bus.prefix, service);
  const internals = busInternals(bus);

  return {
    intervalMs,
    async report(ready) {
      // Fails at once while Redis is known to be down (the producer has no offline queue).
      const redis = await internals.readyProducer(CONNECT_WAIT_MS);
      const nowMs = now();
      const multi = redis.multi();
      if (ready) multi.zadd(key, nowMs + ttlMs, instanceId);
      else multi.zrem(key, instanceId);
      // Members whose report lapsed: instances that died without withdrawing.
      multi.zremrangebyscore(key, '-inf', nowMs);
      // The set itself goes when no instance has reported for a TTL (no stale keys).
      multi.pexpire(key, ttlMs);
      repliesOf(await multi.exec());
    },
    async withdraw() {
      const redis = await internals.readyProducer(CONNECT_WAIT_MS);
      await redis.zrem(key, instanceId);
    },
  };
}

/**
 * The readiness of `services` as their instances reported it, in one round trip (a pipeline of one
 * ZCOUNT per service). Throws when Redis does not answer.
 */
export async function readServiceReadiness(
  bus: Bus,
  services: readonly string[],
  nowMs: number = Date.now(),
): Promise<Record<string, ServiceReadiness>> {
  const redis = await busInternals(bus).readyProducer(CONNECT_WAIT_MS);
  const pipeline = redis.pipeline();
  for (const service of services)
    pipeline.zcount(serviceInstancesKey(bus.prefix, service), `(${nowMs}`, '+inf');
  const counts = repliesOf(await pipeline.exec());
  return Object.fromEntries(
    services.map((service, index): [string, ServiceReadiness] => {
      const instances = Number(counts[index]);
      return [
        service,
        instances > 0
          ? { ok: true, instances }
          : {
              ok: false,
              instances: 0,
              error: `no instance reported ready within ${SERVICE_PRESENCE_TTL_MS / 1000} s (down, restarting, or failing its own checks)`,
            },
      ];
    }),
  );
}
