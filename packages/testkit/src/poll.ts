import { setTimeout as delay } from 'node:timers/promises';

/**
 * The one poll-until of the test suites: waits for something the code under test reaches
 * asynchronously (a job finished, a log line written, a fake called), failing with a message that
 * says what did not happen instead of hanging until jest's own timeout. Unit tests of packages that do
 * not depend on @svc/testkit import this file directly (it imports nothing of the workspace).
 */

/** What a probe returns while the condition does not hold yet: polling goes on. */
export type NotYet = undefined | null | false;

export interface PollOptions {
  /** What is awaited, for the timeout message (e.g. `job run-1 to finish`). */
  readonly what?: string;
  /** ms before giving up; default 10,000. The probe runs at least once, and once more at the deadline. */
  readonly timeoutMs?: number;
  /** ms between the end of one probe and the start of the next; default 20. */
  readonly intervalMs?: number;
  /** More text for the timeout error, read when it is thrown (e.g. a child process's output). */
  readonly detail?: () => string;
}

export const DEFAULT_POLL_TIMEOUT_MS = 10_000;
export const DEFAULT_POLL_INTERVAL_MS = 20;

/**
 * Calls `probe` until it returns something other than `undefined`, `null` or `false`, and resolves
 * with that value (a predicate resolves with `true`, a lookup with what it found). A probe that throws
 * ends the wait with its error (a child that exited need not be waited for). After `timeoutMs` it
 * rejects with `timed out after <ms> ms waiting for <what>` (+ `detail()`).
 */
export async function pollUntil<T>(
  probe: () => T | Promise<T>,
  options: PollOptions = {},
): Promise<Exclude<T, NotYet>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_POLL_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const deadline = Date.now() + timeoutMs;
  let probes = 0;
  for (;;) {
    const value = await probe();
    probes += 1;
    if (isDone(value)) return value;
    const left = deadline - Date.now();
    if (left <= 0) break;
    await delay(Math.min(intervalMs, left));
  }
  const what = options.what ?? 'the condition';
  const detail = options.detail === undefined ? '' : `\n${options.detail()}`;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${probes} probes)${detail}`);
}

function isDone<T>(value: T): value is Exclude<T, NotYet> {
  return value !== undefined && value !== null && value !== false;
}
