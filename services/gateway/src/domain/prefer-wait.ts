import { PREFER_WAIT_MAX_SECONDS, type PreferenceApplied, type RunRecord } from '@svc/contracts';
import parsePreferHeader from 'parse-prefer-header';
import type { RunWaiting } from './run-waiter';

/**
 * `Prefer: wait=N` on the generic run route and the run status read (issue 25 item 7; RFC 7240):
 * the seconds a request asks to wait, at most PREFER_WAIT_MAX_SECONDS; undefined when it asks for
 * none. As RFC 7240 §2 asks, a preference that is not understood (another name, a `wait` that is not
 * a whole number of seconds above 0) is ignored, not refused; of two `wait`s the first counts.
 */
export function preferredWaitSeconds(prefer: string | undefined): number | undefined {
  const { wait } = parsePreferHeader(prefer);
  if (typeof wait !== 'string' || !/^\d+$/.test(wait)) return undefined;
  const seconds = Number(wait);
  return seconds > 0 ? Math.min(seconds, PREFER_WAIT_MAX_SECONDS) : undefined;
}

/** The run after the request's wait, and the answer's header that says the wait was honoured. */
export interface AppliedWait {
  readonly run: RunRecord;
  readonly headers: PreferenceApplied;
}

/**
 * Waits for `run` to end as the request's `Prefer` asks (RunWaiter: the run.finished event, a poll
 * for a lost one), at most its seconds or until `signal` aborts (the client went away); without a
 * `wait`, or for a run already finished, answers at once. Never rejects: past the wait, the last
 * record seen.
 */
export async function waitAsPreferred(
  waiter: RunWaiting,
  clientId: string,
  run: RunRecord,
  prefer: string | undefined,
  signal: AbortSignal,
): Promise<AppliedWait> {
  const seconds = preferredWaitSeconds(prefer);
  if (seconds === undefined) return { run, headers: {} };
  // RunWaiter answers a run already finished at once.
  const waited = await waiter.wait(clientId, run, { timeoutMs: seconds * 1_000, signal });
  return { run: waited, headers: { 'Preference-Applied': `wait=${seconds}` } };
}
