import {
  CrtCompletedRunResponse,
  CrtReplayRunResponse,
  type Quote,
  RUN_ERROR_CODES,
  type RunRecord,
} from '@svc/contracts';
import { BadGatewayError, ConflictError, InternalError } from '@svc/errors';
import { checkedBody } from './contract-body';
import { type AnswerOf, runLocation, runStatusBody } from './run-answers';

/**
 * The HTTP answer of `POST /api/capabilities/crt/run` once the wait is over (design "Flow" step 5),
 * built from the run as it stands. Bodies are checked against their contract schemas (strict: exactly
 * the spec's fields); a stored run that does not fit them is our bug, answered 500 and logged.
 *
 * | run                                    | answer                                                   |
 * | -------------------------------------- | -------------------------------------------------------- |
 * | replay (any status)                    | 200 CrtReplayRunResponse, `Idempotent-Replayed: true`    |
 * | completed                              | 200 CrtCompletedRunResponse                              |
 * | failed, code `provider_unavailable`    | 502 `run <id> failed: <message>`                         |
 * | failed, any other code                 | 500 `run <id> failed: internal error`                    |
 * | cancelled                              | 409 `run <id> was cancelled before it completed`         |
 * | queued / running / retrying (deadline) | 202 RunStatusResponse, `Location: /api/capability-runs/<id>` |
 *
 * A replay of a failed run is still 200 with status `failed`: the key names one attempt, and spec
 * §4 rule 2 says replays return the original work; a new attempt needs a new key.
 */

export interface CrtRunOutcome {
  /** True when the Idempotency-Key named an existing run with the same request. */
  readonly replay: boolean;
  /** The quote stored with the run (null only for runs recorded without one). */
  readonly quote: Quote | null;
  /** The run after the wait (terminal, or as it stood at the deadline). */
  readonly run: RunRecord;
  /** The client's Idempotency-Key, when it sent one (named in the replay message). */
  readonly idempotencyKey?: string | undefined;
}

export type CrtRunAnswer = AnswerOf<'runCrt'>;

/** Throws (never returns) the error answer of a failed or cancelled run; returns otherwise. */
function throwIfUnsuccessful(run: RunRecord): void {
  if (run.status === 'failed') {
    if (run.error?.code === RUN_ERROR_CODES.providerUnavailable) {
      throw new BadGatewayError(`run ${run.run_id} failed: ${run.error.message}`);
    }
    // Our fault: the details stay in the orchestrator's and worker's logs under the run id.
    throw new InternalError(`run ${run.run_id} failed: internal error`, { expose: true });
  }
  if (run.status === 'cancelled') {
    throw new ConflictError(`run ${run.run_id} was cancelled before it completed`);
  }
}

export function crtRunAnswer(outcome: CrtRunOutcome): CrtRunAnswer {
  const { run } = outcome;
  if (outcome.replay) {
    const key = outcome.idempotencyKey === undefined ? '' : ` (Idempotency-Key "${outcome.idempotencyKey}")`;
    const body = checkedBody(
      CrtReplayRunResponse,
      {
        ok: true,
        run_id: run.run_id,
        status: run.status,
        idempotent_replay: true,
        quote: outcome.quote,
        run,
        message: `replay of run ${run.run_id}${key}: no new work was done`,
      },
      'replay response',
    );
    return { status: 200, headers: { 'Idempotent-Replayed': 'true' }, body };
  }

  throwIfUnsuccessful(run);
  if (run.status === 'completed') {
    if (outcome.quote === null) throw new InternalError(`completed run ${run.run_id} has no quote`);
    const body = checkedBody(
      CrtCompletedRunResponse,
      {
        ok: true,
        run_id: run.run_id,
        status: 'completed',
        quote: outcome.quote,
        // A RunRecord's result is any object; it is checked as a CrtResult once, by this parse.
        result: run.result,
      },
      `completed response of run ${run.run_id}`,
    );
    return { status: 200, headers: {}, body };
  }
  // Still queued, running or retrying at the deadline: the client polls.
  return { status: 202, headers: { Location: runLocation(run.run_id) }, body: runStatusBody(run) };
}
