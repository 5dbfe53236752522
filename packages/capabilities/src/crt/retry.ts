import { setTimeout as sleepFor } from 'node:timers/promises';
import { ProviderError } from './provider-error';

/**
 * Retries of one provider request: exponential backoff with full jitter (AWS Architecture Blog,
 * "Exponential Backoff And Jitter": a random delay in [0, min(cap, base·2^n)]), so the retries of
 * many workers hitting one overloaded provider spread out. Written here rather than taken from a
 * library because it must honour the provider's Retry-After and stop at the run's deadline, which
 * neither `exponential-backoff` nor `p-retry` can do with an abortable wait.
 */
export interface RetryPolicy {
  /** HTTP attempts in all (1 = no retry). */
  attempts: number;
  /** ms: backoff ceiling of the first retry; doubled for each further one. */
  baseDelayMs: number;
  /** ms: the backoff never exceeds this. */
  maxDelayMs: number;
  /** ms: a longer Retry-After is not waited for: the provider is treated as unavailable. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 10_000,
};

export interface RetryContext {
  /** Epoch ms after which no attempt starts and no wait runs past. */
  deadline: number;
  /** Aborts waits (the job is being cancelled or the worker closes). */
  signal: AbortSignal;
  /** [0, 1) source of jitter; tests pass a constant. Default Math.random. */
  random?: () => number;
  /** Clock; default Date.now. */
  now?: () => number;
  /** Waits `ms` unless `signal` aborts (tests record the delays); default node:timers/promises. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const defaultSleep = (ms: number, signal: AbortSignal): Promise<void> => sleepFor(ms, undefined, { signal });

/** ms to wait before retry number `retry` (1 = the first retry), full jitter. */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Runs `attempt` until it succeeds, fails with a non-retryable ProviderError, the attempts are used
 * up, a Retry-After is too long, or the next wait would end past the deadline. The last
 * ProviderError is thrown with `attempts` set. Anything that is not a ProviderError (a bug, or the
 * job's signal aborting) is thrown at once.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  context: RetryContext,
): Promise<T> {
  const random = context.random ?? Math.random;
  const now = context.now ?? Date.now;
  const sleep = context.sleep ?? defaultSleep;
  for (let attemptNumber = 1; ; attemptNumber += 1) {
    try {
      return await attempt(attemptNumber);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      err.attempts = attemptNumber;
      if (!err.retryable || attemptNumber >= policy.attempts) throw err;
      if (err.retryAfterMs !== undefined && err.retryAfterMs > policy.maxRetryAfterMs) throw err;
      const delay = Math.max(backoffDelayMs(attemptNumber, policy, random), err.retryAfterMs ?? 0);
      // Waiting past the deadline only to be cut off at once would waste the next provider's share.
      if (now() + delay >= context.deadline) throw err;
      if (delay > 0) await sleep(delay, context.signal);
    }
  }
}
