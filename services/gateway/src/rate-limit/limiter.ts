import type { Logger } from '@svc/log';
import { type CountResult, fallbackWarning, SharedCounter } from '@svc/shared-counter';
import type { Redis } from 'ioredis';
import { type BudgetPolicy, type Subject, subjectKey } from './budgets';
import type { BudgetState } from './headers';

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

/**
 * Budgets counted in Redis, so every gateway process shares them: one @svc/shared-counter
 * SharedCounter per policy (rate-limiter-flexible's fixed window: a Lua INCRBY + PTTL, one round
 * trip per request), on the bus's producer connection (`enableOfflineQueue: false`: a command fails
 * at once while Redis is down, never queues). A key that used up its window is then refused from
 * this process's memory until the window ends, so a client hammering a spent budget costs no Redis
 * traffic at all.
 *
 * Redis down, or slower than 500 ms: **fail open to a per-process limit**. The same policy is
 * counted in this process's memory instead (each gateway then allows the budget on its own), and a
 * warning is logged at most every 10 s. Requests are neither refused nor held because the limiter's
 * store is unavailable (decisions: availability first; the store of record is not involved).
 */
export class RedisBudgetLedger implements BudgetLedger {
  private readonly counters = new Map<string, SharedCounter>();
  private readonly warn: ReturnType<typeof fallbackWarning>;

  constructor(
    private readonly options: {
      readonly redis: Redis;
      /** BUS_PREFIX: the counters live in the bus's key space (tests delete it whole). */
      readonly prefix: string;
      readonly logger: Logger;
      readonly now?: () => number;
    },
  ) {
    this.warn = fallbackWarning({
      logger: options.logger,
      message: 'rate limiter: Redis unavailable, counting budgets in this process only (fail-open)',
      ...(options.now === undefined ? {} : { now: options.now }),
    });
  }

  async consume(policy: BudgetPolicy, subject: Subject, points: number): Promise<Consumption> {
    return consumption(policy, points, await this.counterFor(policy).consume(subjectKey(subject), points));
  }

  private counterFor(policy: BudgetPolicy): SharedCounter {
    const id = `${policy.budget}:${policy.scope}:${policy.quota}:${policy.windowSeconds}`;
    let counter = this.counters.get(id);
    if (counter === undefined) {
      counter = new SharedCounter({
        redis: this.options.redis,
        keyPrefix: rateLimitKeyPrefix(this.options.prefix, policy),
        points: policy.quota,
        windowSeconds: policy.windowSeconds,
        onFallback: (err) => this.warn(err, { budget: policy.budget }),
      });
      this.counters.set(id, counter);
    }
    return counter;
  }
}

function consumption(policy: BudgetPolicy, points: number, count: CountResult): Consumption {
  const state: BudgetState = { policy, remaining: count.remaining, resetMs: count.resetMs };
  if (!count.over) return { state, granted: points };
  // Over the budget. From the store, `consumed` counts this request's points too: those that still
  // fitted are granted (an MCP batch partly within budget). Refused from memory (the key was already
  // spent), it is 0: nothing fits.
  const before = count.consumed - points;
  const granted = count.consumed > 0 ? Math.min(points, Math.max(0, policy.quota - before)) : 0;
  return { state, granted };
}
