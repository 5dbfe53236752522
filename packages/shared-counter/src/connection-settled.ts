import type { Redis } from 'ioredis';

/** One wait per connection, shared by every count that arrives meanwhile (one set of listeners). */
const waits = new WeakMap<Redis, Promise<void>>();

/**
 * While a connection attempt is in flight (right after start, or a reconnect) a command fails at
 * once (a producer has no offline queue): wait for the attempt's outcome, at most `timeoutMs`,
 * rather than count the first requests in memory. Connected, or between attempts of a down Redis
 * (`reconnecting`, `end`): no wait.
 */
export function connectionSettled(redis: Redis, timeoutMs: number): Promise<void> | undefined {
  if (redis.status !== 'connecting' && redis.status !== 'connect') return undefined;
  let wait = waits.get(redis);
  if (wait === undefined) {
    wait = new Promise<void>((resolve) => {
      // Settled by the attempt's outcome: ready, or failed (error/close: Redis is down, count in memory).
      const outcomes = ['ready', 'error', 'close', 'end'] as const;
      const done = (): void => {
        clearTimeout(timer);
        for (const event of outcomes) redis.off(event, done);
        waits.delete(redis);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      for (const event of outcomes) redis.once(event, done);
    });
    waits.set(redis, wait);
  }
  return wait;
}
