import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';
import { connectionSettled } from './connection-settled';

/**
 * ms: the longest a count waits for Redis. Redis answers in well under a millisecond; a Redis that
 * does not answer at all must not hold the request (this process's memory takes over).
 */
export const REDIS_TIMEOUT_MS = 500;

export interface SharedCounterOptions {
  /**
   * A producer connection (`enableOfflineQueue: false`: a command fails at once while Redis is
   * down). Absent: this process's memory only (unit tests, a process without Redis).
   */
  readonly redis?: Redis;
  /** The counters' Redis key prefix, e.g. `<BUS_PREFIX>:ratelimit:reads:1s`; keys are `<prefix>:<key>`. */
  readonly keyPrefix: string;
  /** Points one key may spend in one window. */
  readonly points: number;
  /** s: the fixed window, counted from a key's first point in it. */
  readonly windowSeconds: number;
  /**
   * false (default): a key that spent its window is then refused from this process's memory until
   * the window ends (rate-limiter-flexible's `inMemoryBlockOnConsumed`), so hammering a spent key
   * costs no Redis traffic: the API's budgets. true: every count reaches the store, so a `reward` or
   * `delete` (a sign-in that succeeded) applies at once and the count is exact.
   */
  readonly exact?: boolean;
  /** Called with the store's error each time this process's memory counts instead (log it, throttled). */
  readonly onFallback?: (err: unknown) => void;
}

/** One count's outcome. */
export interface CountResult {
  /** The points did not all fit: the caller refuses (some may have fitted: see `consumed`). */
  readonly over: boolean;
  /**
   * Points counted in the window, this call's included. 0 when refused from memory without asking
   * the store (the key was spent already): then nothing fits.
   */
  readonly consumed: number;
  /** Points left in the window (0 when over). */
  readonly remaining: number;
  /** ms until the window ends. */
  readonly resetMs: number;
}

/**
 * A fixed-window counter in Redis, shared by every process that counts under the same prefix (one
 * Lua INCRBY + PTTL per count, rate-limiter-flexible's RateLimiterRedis), with **this process's
 * memory as the fallback**: Redis down, not ready, or slower than REDIS_TIMEOUT_MS, and the same
 * count is kept in memory instead (so each process then limits on its own), never refused or held
 * for the store's sake. The gateway's rate-limit budgets and the dashboard's sign-in throttle are
 * both this one mechanism (issue 24 item 9).
 */
export class SharedCounter {
  private readonly shared: RLWrapperTimeouts | undefined;
  private readonly local: RateLimiterMemory;

  constructor(private readonly options: SharedCounterOptions) {
    const common = {
      keyPrefix: options.keyPrefix,
      points: options.points,
      duration: options.windowSeconds,
    };
    this.local = new RateLimiterMemory(common);
    if (options.redis === undefined) return;
    const redis = new RateLimiterRedis({
      ...common,
      storeClient: options.redis,
      // Not "ready" (connecting, reconnecting, closed): refuse at once and let memory count.
      rejectIfRedisNotReady: true,
      ...(options.exact === true ? {} : { inMemoryBlockOnConsumed: options.points }),
    });
    this.shared = new RLWrapperTimeouts({ limiter: redis, timeoutMs: REDIS_TIMEOUT_MS });
  }

  /** Spends `points` of `key`'s window. */
  async consume(key: string, points = 1): Promise<CountResult> {
    let settled: { res: RateLimiterRes; over: boolean };
    try {
      settled = await settle(this.sharedOrLocal(await this.store()).consume(key, points));
    } catch (err) {
      this.options.onFallback?.(err);
      settled = await settle(this.local.consume(key, points));
    }
    const { res, over } = settled;
    return {
      over,
      consumed: res.consumedPoints,
      remaining: over ? 0 : res.remainingPoints,
      resetMs: res.msBeforeNext,
    };
  }

  /** Gives `points` back to `key`'s window (an attempt that turned out not to count). */
  async reward(key: string, points = 1): Promise<void> {
    await this.either((limiter) => limiter.reward(key, points));
  }

  /** Forgets `key`'s window (its count starts again from nothing). */
  async delete(key: string): Promise<void> {
    await this.either((limiter) => limiter.delete(key));
  }

  /** The shared store once its connection attempt (if one is in flight) settled; none without Redis. */
  private async store(): Promise<RLWrapperTimeouts | undefined> {
    const { redis } = this.options;
    if (redis !== undefined) await connectionSettled(redis, REDIS_TIMEOUT_MS);
    return this.shared;
  }

  private sharedOrLocal(shared: RLWrapperTimeouts | undefined): RLWrapperTimeouts | RateLimiterMemory {
    return shared ?? this.local;
  }

  private async either(change: (limiter: RLWrapperTimeouts | RateLimiterMemory) => Promise<unknown>) {
    try {
      await change(this.sharedOrLocal(this.shared));
    } catch (err) {
      this.options.onFallback?.(err);
      await change(this.local);
    }
  }
}

/**
 * A limiter's answer either way: rate-limiter-flexible resolves with a RateLimiterRes within the
 * window's points and rejects with one over them; anything else it rejects with is a store failure
 * (rethrown).
 */
async function settle(promise: Promise<RateLimiterRes>): Promise<{ res: RateLimiterRes; over: boolean }> {
  try {
    return { res: await promise, over: false };
  } catch (err) {
    if (err instanceof RateLimiterRes) return { res: err, over: true };
    throw err;
  }
}
