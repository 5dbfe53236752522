import type { BudgetPolicy } from './budgets';

/**
 * The RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-10): both are structured-field
 * Lists (RFC 9651) of Items whose value names the policy (a String: `"reads"`) and whose parameters
 * carry the numbers. `RateLimit-Policy` states the quota `q` per window `w` (s); `RateLimit` what is
 * left, `r`, and `t`, the seconds until the window resets. An answer that spent from several
 * budgets (an MCP batch) lists each once.
 */

/** The state of one budget after a request spent from it. */
export interface BudgetState {
  readonly policy: BudgetPolicy;
  /** Requests left in the current window (never negative). */
  readonly remaining: number;
  /** ms until the window resets (and the budget has room again). */
  readonly resetMs: number;
}

/** Whole seconds until `ms` have passed, rounded up (delay-seconds never undershoots). */
export function secondsUntil(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1_000));
}

/** `"reads";q=200;w=2, "quotes";q=20;w=2` */
export function formatPolicyHeader(states: readonly BudgetState[]): string {
  return states
    .map(({ policy }) => `"${policy.budget}";q=${policy.quota};w=${policy.windowSeconds}`)
    .join(', ');
}

/** `"reads";r=153;t=1, "quotes";r=0;t=2` */
export function formatRateLimitHeader(states: readonly BudgetState[]): string {
  return states
    .map(
      ({ policy, remaining, resetMs }) =>
        `"${policy.budget}";r=${Math.max(0, remaining)};t=${secondsUntil(resetMs)}`,
    )
    .join(', ');
}

/**
 * The 429 message (REST `error` and the MCP tool result's text): which budget, its limit and when to
 * retry, e.g. `rate limit exceeded: the quotes budget allows 20 requests per 2 s for this API key;
 * retry in 2 s`.
 */
export function rateLimitedMessage(state: BudgetState): string {
  const { policy } = state;
  const who = policy.scope === 'key' ? 'this API key' : 'this address (send an API key for more)';
  const per = policy.windowSeconds === 1 ? 'per second' : `per ${policy.windowSeconds} s`;
  const requests = policy.quota === 1 ? 'request' : 'requests';
  return (
    `rate limit exceeded: the ${policy.budget} budget allows ${policy.quota} ${requests} ${per} for ${who}; ` +
    `retry in ${Math.max(1, secondsUntil(state.resetMs))} s`
  );
}
