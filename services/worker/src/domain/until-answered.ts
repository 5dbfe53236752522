import { setTimeout as sleep } from 'node:timers/promises';

/** How long and how often a call is repeated until it gets an answer. */
export interface AskPolicy {
  /** ms before the second try; each later pause doubles up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** ms after the first try past which no new try starts (the last error is thrown). */
  giveUpAfterMs: number;
}

/**
 * Calls `call` until it resolves, pausing 100 ms, 200 ms, … up to `maxDelayMs` between tries, and
 * for at most `giveUpAfterMs`; then throws the last error. A TypeError (a request that does not
 * match its schema: a bug, not an outage) is thrown at once. `onRetry` hears each failed try.
 */
export async function untilAnswered<T>(
  call: () => Promise<T>,
  policy: AskPolicy,
  onRetry: (err: unknown, tries: number) => void,
): Promise<T> {
  const giveUpAt = Date.now() + policy.giveUpAfterMs;
  let delayMs = policy.firstDelayMs;
  for (let tries = 1; ; tries += 1) {
    try {
      return await call();
    } catch (err) {
      if (err instanceof TypeError || Date.now() + delayMs > giveUpAt) throw err;
      onRetry(err, tries);
    }
    await sleep(delayMs);
    delayMs = Math.min(policy.maxDelayMs, delayMs * 2);
  }
}
