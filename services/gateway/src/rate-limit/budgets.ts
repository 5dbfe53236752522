import { RATE_LIMIT_BUDGETS, type RateLimitBudget } from '@svc/contracts';
import { z } from 'zod';

/**
 * Who a budget is counted for: an API key (a verified key, `k:<key_id>`), or a source address
 * (`a:<req.ip>`) for calls that carry no valid key (public operations, upload PUTs, failed auth).
 */
export type Subject =
  | { readonly kind: 'key'; readonly keyId: string }
  | { readonly kind: 'address'; readonly ip: string };

/**
 * One budget as the limiter enforces it and the RateLimit-Policy header states it: at most `quota`
 * requests per fixed window of `windowSeconds` (rate-limiter-flexible's RateLimiterRedis: one
 * counter per window in Redis). The window holds `rate × window` requests, so a client may spend a
 * whole window's quota at once: that is the burst allowance.
 */
export interface BudgetPolicy {
  readonly budget: RateLimitBudget;
  /** Requests per window (RateLimit-Policy `q`). */
  readonly quota: number;
  /** s, a whole number (RateLimit-Policy `w`; the draft has no sub-second windows). */
  readonly windowSeconds: number;
  /** Whose counter: `key` (per API key) or `address` (per source address). */
  readonly scope: Subject['kind'];
}

interface Allowance {
  /** Requests per second, sustained. */
  readonly perSecond: number;
  /** Requests that may come at once: the window's quota (window = burst / perSecond s). */
  readonly burst: number;
}

/**
 * Defaults in the spirit of Stripe's (about 100 read requests per second per key): creating quotes
 * and runs is tighter (each writes rows, holds money or queues work), callers without a key tighter
 * still. Every figure is multiplied by RATE_LIMIT_MULTIPLIER (env.ts); operator overrides are not.
 */
export const DEFAULT_ALLOWANCES: Readonly<
  Record<Subject['kind'], Readonly<Record<RateLimitBudget, Allowance>>>
> = {
  key: {
    reads: { perSecond: 100, burst: 200 },
    quotes: { perSecond: 10, burst: 20 },
    runs: { perSecond: 5, burst: 10 },
    transfers: { perSecond: 20, burst: 40 },
  },
  address: {
    reads: { perSecond: 20, burst: 40 },
    quotes: { perSecond: 2, burst: 4 },
    runs: { perSecond: 2, burst: 4 },
    transfers: { perSecond: 10, burst: 20 },
  },
};

// Bounds of a stored override: a window of at most an hour, and a quota no counter overflows.
export const MAX_WINDOW_SECONDS = 3_600;
export const MAX_QUOTA = 1_000_000_000;

/** One operator override (auth.clients.rate_limits, `pnpm admin set-rate-limit`). */
export const BudgetOverride = z.object({
  quota: z.number().int().min(1).max(MAX_QUOTA),
  window_seconds: z.number().int().min(1).max(MAX_WINDOW_SECONDS),
});
export type BudgetOverride = z.infer<typeof BudgetOverride>;

/** auth.clients.rate_limits: a budget name → override; budgets not named keep the defaults. */
export const ClientRateLimits = z.partialRecord(z.enum(RATE_LIMIT_BUDGETS), BudgetOverride);
export type ClientRateLimits = z.infer<typeof ClientRateLimits>;

/** The default policy of a budget for a scope, scaled by the multiplier (at least 1 request). */
export function defaultPolicy(
  budget: RateLimitBudget,
  scope: Subject['kind'],
  multiplier: number,
): BudgetPolicy {
  const { perSecond, burst } = DEFAULT_ALLOWANCES[scope][budget];
  const windowSeconds = Math.max(1, Math.round(burst / perSecond));
  const quota = Math.min(MAX_QUOTA, Math.max(1, Math.round(burst * multiplier)));
  return { budget, quota, windowSeconds, scope };
}

/**
 * The policies in force: defaults × multiplier, and per client the operator's overrides of its
 * keys' budgets (read with the API key, so no query of its own; a malformed stored value is
 * ignored, with the defaults in force, rather than failing requests).
 */
export class BudgetPolicies {
  private readonly defaults: Record<Subject['kind'], Record<RateLimitBudget, BudgetPolicy>>;

  constructor(readonly multiplier: number) {
    const forScope = (scope: Subject['kind']): Record<RateLimitBudget, BudgetPolicy> => ({
      reads: defaultPolicy('reads', scope, multiplier),
      quotes: defaultPolicy('quotes', scope, multiplier),
      runs: defaultPolicy('runs', scope, multiplier),
      transfers: defaultPolicy('transfers', scope, multiplier),
    });
    this.defaults = { key: forScope('key'), address: forScope('address') };
  }

  /** The policy of `budget` for `subject`; `overrides`: the client's stored rate_limits (keys only). */
  policy(budget: RateLimitBudget, subject: Subject, overrides?: unknown): BudgetPolicy {
    if (subject.kind === 'key' && overrides !== undefined && overrides !== null) {
      const parsed = ClientRateLimits.safeParse(overrides);
      const override = parsed.success ? parsed.data[budget] : undefined;
      if (override !== undefined) {
        return { budget, quota: override.quota, windowSeconds: override.window_seconds, scope: 'key' };
      }
    }
    return this.defaults[subject.kind][budget];
  }
}

/** The counter's name inside the budget's key space: `k:<key_id>` or `a:<address>`. */
export function subjectKey(subject: Subject): string {
  return subject.kind === 'key' ? `k:${subject.keyId}` : `a:${subject.ip}`;
}
