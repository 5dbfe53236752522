import { isTerminalRunState, type RunRecord } from '@svc/contracts';
import type { RunWaiting } from './run-waiter';

// ms: how often a waiter that reports progress looks at the run between run.finished events.
const PROGRESS_SLICE_MS = 1_000;

export interface RunWaitOptions {
  /** ms to wait at most. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /**
   * Called with the run each time its status changes (and once at the start). Without it the wait
   * is one RunWaiter.wait (only the final state matters); with it the run is also reloaded every
   * second, so `queued → running` is seen before the run ends (MCP progress notifications, M5).
   */
  readonly onChange?: ((run: RunRecord) => Promise<void>) | undefined;
  /** Reloads the run (orchestrator.getRun); needed with onChange. */
  readonly reload?: ((clientId: string, runId: string) => Promise<RunRecord>) | undefined;
}

/** Waits for `run` to end, at most `timeoutMs`; resolves with the last record seen, never rejects. */
export async function waitForRun(
  waiter: RunWaiting,
  clientId: string,
  run: RunRecord,
  options: RunWaitOptions,
): Promise<RunRecord> {
  const { onChange, reload } = options;
  if (onChange === undefined || reload === undefined) {
    return waiter.wait(clientId, run, { timeoutMs: options.timeoutMs, signal: options.signal });
  }
  const deadline = Date.now() + options.timeoutMs;
  let last = run;
  await onChange(last).catch(() => undefined);
  while (!isTerminalRunState(last.status) && options.signal?.aborted !== true) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const slice = Math.min(left, PROGRESS_SLICE_MS);
    const sliceStart = Date.now();
    let next = await waiter.wait(clientId, last, { timeoutMs: slice, signal: options.signal });
    // The waiter answers a run still going at once when it is at its cap or closed (shutdown): the
    // REST route then answers 202 at once, and so does this wait, rather than reloading the run
    // back to back until the deadline. (An abort also answers at once; the loop ends on it anyway.)
    const refused = !isTerminalRunState(next.status) && Date.now() - sliceStart < slice / 2;
    if (!isTerminalRunState(next.status)) {
      // A failed reload keeps the last record (like the waiter's own polls).
      next = await reload(clientId, next.run_id).catch(() => next);
    }
    if (next.status !== last.status) await onChange(next).catch(() => undefined);
    last = next;
    if (refused) break;
  }
  return last;
}
