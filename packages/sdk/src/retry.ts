import { NetworkError, SvcError } from './errors';

/** How often and how long to retry one request. `attempts` counts every try (1 = no retry). */
export interface RetryOptions {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 4, baseDelayMs: 250, maxDelayMs: 8_000 };

/** The longest `Retry-After` the SDK waits for (a server asking for more gets an error instead). */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Statuses retried (SK2): 429 and the gateway/availability 5xx. Never 402 or any other 4xx, never 500/501. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Whether an error of one try is worth another try. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof SvcError && RETRYABLE_STATUSES.has(error.status);
}

/**
 * `Retry-After` in ms: delta-seconds (`"2"`) or an HTTP-date (RFC 9110 §10.2.3), relative to `now`.
 * undefined when absent or unparseable; a date in the past is 0.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date always names a weekday and GMT; anything else (a negative or fractional number) is not one.
  if (!/GMT$/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Exponential backoff with full jitter (AWS architecture blog "Exponential Backoff And Jitter"):
 * a uniform delay in [0, min(maxDelayMs, baseDelayMs * 2^retry)], `retry` = 0 before the second try.
 */
export function backoffDelay(
  retry: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * The wait before the next try: the server's `Retry-After` when it sent one (it knows when it is
 * back; up to MAX_RETRY_AFTER_MS), else the jittered backoff. undefined: do not retry.
 */
export function retryDelay(
  retry: number,
  options: RetryOptions,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs > MAX_RETRY_AFTER_MS ? undefined : retryAfterMs;
  return backoffDelay(retry, options, random);
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
