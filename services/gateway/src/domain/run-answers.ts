import {
  type ApiOperationById,
  apiOperation,
  isTerminalRunState,
  type OperationAnswer,
  operationPath,
  type PreferenceApplied,
  type RunRecord,
  RunStartResponse,
  RunStatusResponse,
} from '@svc/contracts';
import { checkedBody } from './contract-body';
import type { CancelledRun, StartedRun } from './run-orchestrator';

/**
 * HTTP answers of POST /api/capabilities/{slug}/run and POST /api/capability-runs/{run_id}/cancel
 * (design "Endpoints (gateway) and scopes"). Unlike the crt route, nothing waits for the run: the
 * answer is given as soon as the orchestrator has recorded (or cancelled) it.
 *
 * | start                                  | answer                                               |
 * | -------------------------------------- | ---------------------------------------------------- |
 * | replay of an Idempotency-Key (any state) | 200 RunStartResponse, `Idempotent-Replayed: true`  |
 * | new run, already terminal (plan_only)  | 200 RunStartResponse                                 |
 * | new run, queued                        | 202 RunStartResponse, `Location: /api/capability-runs/<id>` |
 *
 * With `Prefer: wait=N` the run is first waited for (prefer-wait.ts): one that ends within N s is
 * answered as finished (200), and every answer carries `Preference-Applied: wait=N`.
 *
 * | cancel outcome     | answer                                                              |
 * | ------------------ | ------------------------------------------------------------------- |
 * | `cancelled`        | 200 RunStatusResponse (status cancelled)                            |
 * | `cancel_requested` | 202 RunStatusResponse (status running, cancel_requested_at) + `Location` |
 */

/** An answer of the operation named `Id`, as its route returns it (routing/route.ts). */
export type AnswerOf<Id extends Parameters<typeof apiOperation>[0]> = OperationAnswer<ApiOperationById<Id>>;

const runStatus = apiOperation('getRun');

/** Where a client polls a run: the path of GET /api/capability-runs/{run_id}. */
export function runLocation(runId: string): string {
  return operationPath(runStatus, { run_id: runId });
}

/** The 200 body of GET /api/capability-runs/{run_id}. */
export function runStatusBody(run: RunRecord): RunStatusResponse {
  return checkedBody(RunStatusResponse, { ok: true, ...run }, 'run status response');
}

/** `extra`: headers every answer carries (Preference-Applied, when the request's wait was honoured). */
export function runStartAnswer(
  started: StartedRun,
  extra: PreferenceApplied = {},
): AnswerOf<'runCapability'> {
  const { run } = started;
  const body = checkedBody(
    RunStartResponse,
    {
      ok: true,
      run_id: run.run_id,
      status: run.status,
      idempotent_replay: started.replay,
      quote: started.quote,
      run,
    },
    `start response of run ${run.run_id}`,
  );
  // Like the crt route (decisions C3/C12): a replay is always 200, whatever the run's state.
  if (started.replay) return { status: 200, headers: { 'Idempotent-Replayed': 'true', ...extra }, body };
  if (isTerminalRunState(run.status)) return { status: 200, headers: { ...extra }, body };
  return { status: 202, headers: { Location: runLocation(run.run_id), ...extra }, body };
}

export function cancelAnswer(cancelled: CancelledRun): AnswerOf<'cancelRun'> {
  const body = runStatusBody(cancelled.run);
  if (cancelled.outcome === 'cancelled') return { status: 200, headers: {}, body };
  // Cooperative (spec §3): the run is still running; the client polls until it ends.
  return { status: 202, headers: { Location: runLocation(cancelled.run.run_id) }, body };
}
