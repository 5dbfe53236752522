import type { RunStatusResponse } from '@svc/contracts';
import { SvcError } from './errors';

/**
 * What the server-side cancel of a run given up on (deadline or aborted signal, SK5) came to, in
 * words for the error's message. The cancel answer decides what a caller may still pay:
 *  - `cancelled` (the run was queued or retrying): the hold is released, nothing is charged;
 *  - still `running` with `cancel_requested_at` (202): cancellation is cooperative (spec §3): the
 *    handler stops at its next check, but a run that completes first is charged its price;
 *  - 409: the run had already ended (the server's text says how; a completed run is charged);
 *  - any other failure: nothing is known, the run may go on and be charged.
 */
export function cancelOutcome(
  runId: string,
  answer: RunStatusResponse | undefined,
  failure: unknown,
): string {
  if (answer?.status === 'cancelled') return `run ${runId} was cancelled on the server; nothing is charged`;
  if (answer !== undefined) {
    const price =
      Number(answer.price_usd) === 0 ? 'nothing (a free run)' : `its price, ${answer.price_usd} USD`;
    return (
      `the cancel of run ${runId} was requested; it is still ${answer.status} and stops at its next check ` +
      `(cancellation is cooperative): if it completes first it is charged ${price}`
    );
  }
  if (failure instanceof SvcError && failure.status === 409) {
    return `run ${runId} had already ended (${failure.error})`;
  }
  const why = failure instanceof Error ? failure.message : String(failure);
  return `the cancel of run ${runId} failed (${why}): the run may go on and be charged its price`;
}
