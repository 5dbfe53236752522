import type { Logger } from '@svc/log';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';
import { type BudgetPolicy, type Subject, subjectKey } from './budgets';
import type { BudgetState } from './headers';

// ms: the longest a request waits for its counter. Redis answers in well under a millisecond; a
// Redis that does not answer at all must not hold requests (the fallback below takes over).
const REDIS_TIMEOUT_MS = 500;
// ms: at most one "limiter fell back" warning per window (a down Redis fails every request).
const FALLBACK_LOG_WINDOW_MS = 10_000;

/** What a request got from one budget. */
export interface Consumption {
  readonly state: BudgetState;
  /** Of the points asked for, how many fit in the budget (the first `granted` go ahead). */
  readonly granted: number;
}

/** Spends points from budgets; the gateway's only view of the limiter (tests may pass their own). */
export interface BudgetLedger {
  consume(policy: BudgetPolicy, subject: Subject, points: number): Promise<Consumption>;
}

/**
 * The limiter's counter keys: `<BUS_PREFIX>:ratelimit:<budget>:<window>s:<k|a>:<id>`. The window is
 * part of the name: a counter's expiry is set when its window opens, so an override with another
 * window (or its reset to the default) starts a counter of its own instead of inheriting a 600 s
 * expiry for a 2 s window. A new quota with the same window keeps counting what was spent.
 */
export function rateLimitKeyPrefix(busPrefix: string, policy: BudgetPolicy): string {
  return `${busPrefix}:ratelimit:${policy.budget}:${policy.windowSeconds}s`;
}

interface PolicyLimiters {
  readonly shared: RLWrapperTimeouts;
  readonly local: RateLimiterMemory;
}

/**
 * Budgets counted in Redis with rate-limiter-flexible, so every gateway process shares them: one
 * RateLimiterRedis per policy (fixed window: a Lua INCRBY + PTTL, one round trip per request), on
 * the bus's producer connection (`enableOfflineQueue: false`: a command fails at once while Redis
 * is down, never queues). A key that used up its window is then refused from this process's memory
 * until the window ends (`inMemoryBlockOnConsumed`), so a client hammering a spent budget costs no
 * Redis traffic at all.
 *
 * Redis down, or slower than REDIS_TIMEOUT_MS: **fail open to a per-process limit**. The same
 * policy is counted in this process's memory instead (each gateway then allows the budget on its
 * own), and a warning is logged at most every 10 s. Requests are neither refused nor held because
 * the limiter's store is unavailable (decisions: availability first; the store of record is not
 * involved).
 */
export class RedisBudgetLedger implements BudgetLedger {
  private readonly limiters = new Map<string, PolicyLimiters>();
  private lastFallbackLogAt = Number.NEGATIVE_INFINITY;
  private fallbacksSinceLog = 0;
  private connecting: Promise<void> | undefined;

  constructor(
    private readonly options: {
      readonly redis: Redis;
      /** BUS_PREFIX: the counters live in the bus's key space (tests delete it whole). */
      readonly prefix: string;
      readonly logger: Logger;
      readonly now?: () => number;
    },
  ) {}

  async consume(policy: BudgetPolicy, subject: Subject, points: number): Promise<Consumption> {
    const limiters = this.limitersFor(policy);
    const key = subjectKey(subject);
    await this.firstConnection();
    try {
      return consumption(policy, points, await settle(limiters.shared.consume(key, points)));
    } catch (err) {
      this.noteFallback(err, policy);
      return consumption(policy, points, await settle(limiters.local.consume(key, points)));
    }
  }

  /**
   * While a connection attempt is in flight (right after start, or a reconnect) a command would fail
   * at once (the producer has no offline queue): wait for the attempt's outcome, at most
   * REDIS_TIMEOUT_MS, rather than count the first requests in memory. Connected, or between attempts
   * of a down Redis (`reconnecting`): no wait.
   */
  private firstConnection(): Promise<void> | undefined {
    const { redis } = this.options;
    if (redis.status !== 'connecting' && redis.status !== 'connect') return undefined;
    // One wait shared by every request that arrives meanwhile (one set of listeners, not one each).
    this.connecting ??= new Promise<void>((resolve) => {
      // Settled by the attempt's outcome: ready, or failed (error/close: Redis is down, count in memory).
      const outcomes = ['ready', 'error', 'close', 'end'] as const;
      const done = (): void => {
        clearTimeout(timer);
        for (const event of outcomes) redis.off(event, done);
        this.connecting = undefined;
        resolve();
      };
      const timer = setTimeout(done, REDIS_TIMEOUT_MS);
      for (const event of outcomes) redis.once(event, done);
    });
    return this.connecting;
  }

  private limitersFor(policy: BudgetPolicy): PolicyLimiters {
    const id = `${policy.budget}:${policy.scope}:${policy.quota}:${policy.windowSeconds}`;
    let limiters = this.limiters.get(id);
    if (limiters === undefined) {
      const common = {
        keyPrefix: rateLimitKeyPrefix(this.options.prefix, policy),
        points: policy.quota,
        duration: policy.windowSeconds,
      };
      const redis = new RateLimiterRedis({
        ...common,
        storeClient: this.options.redis,
        // Not "ready" (connecting, reconnecting, closed): refuse at once and let the fallback count.
        rejectIfRedisNotReady: true,
        inMemoryBlockOnConsumed: policy.quota,
      });
      limiters = {
        shared: new RLWrapperTimeouts({ limiter: redis, timeoutMs: REDIS_TIMEOUT_MS }),
        local: new RateLimiterMemory(common),
      };
      this.limiters.set(id, limiters);
    }
    return limiters;
  }

  private noteFallback(err: unknown, policy: BudgetPolicy): void {
    const now = (this.options.now ?? Date.now)();
    this.fallbacksSinceLog += 1;
    if (now - this.lastFallbackLogAt < FALLBACK_LOG_WINDOW_MS) return;
    this.options.logger.warn(
      {
        err: err instanceof Error ? err.message : String(err),
        budget: policy.budget,
        requests: this.fallbacksSinceLog,
      },
      'rate limiter: Redis unavailable, counting budgets in this process only (fail-open)',
    );
    this.lastFallbackLogAt = now;
    this.fallbacksSinceLog = 0;
  }
}

/**
 * A limiter's answer either way: rate-limiter-flexible resolves with a RateLimiterRes within the
 * budget and rejects with one over it; anything else it rejects with is a store failure (rethrown).
 */
async function settle(promise: Promise<RateLimiterRes>): Promise<{ res: RateLimiterRes; over: boolean }> {
  try {
    return { res: await promise, over: false };
  } catch (err) {
    if (err instanceof RateLimiterRes) return { res: err, over: true };
    throw err;
  }
}

function consumption(
  policy: BudgetPolicy,
  points: number,
  { res, over }: { res: RateLimiterRes; over: boolean },
): Consumption {
  const state: BudgetState = { policy, remaining: res.remainingPoints, resetMs: res.msBeforeNext };
  if (!over) return { state, granted: points };
  // Over the budget. From the store, `consumedPoints` counts this request's points too: those that
  // still fitted are granted (an MCP batch partly within budget). Refused from memory (the key was
  // already spent), it is 0: nothing fits.
  const before = res.consumedPoints - points;
  const granted = res.consumedPoints > 0 ? Math.min(points, Math.max(0, policy.quota - before)) : 0;
  return { state: { ...state, remaining: 0 }, granted };
}
