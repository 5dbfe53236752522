import type { RunReport, RunState } from '@svc/contracts';

/**
 * How a worker's claim and reports move a run (docs/decisions.md C11, L-A; issue 15). The database
 * applies these as conditional UPDATEs (claim-attempt.ts, reports.ts mirror `claimable` and
 * `appliesTo` in SQL), which also settles two requests racing.
 *
 * - A claim (`orchestrator.claimAttempt`) moves a non-final run to `running` and counts the attempt
 *   (attempts + 1), only for the run's current job (`job_id`) and while no cancel is requested. A
 *   job redelivered by BullMQ (a retry, stalled-job recovery) claims again: a new attempt.
 * - `retrying` applies only from `running` to the report of the run's current job and attempt: a late
 *   one of an older attempt or a superseded job must not pull back a run another attempt is running.
 * - `completed`, `failed` and `cancelled` apply from any non-final state, whichever claimed attempt
 *   reports them: the first final outcome wins. A superseded job's result is work really done for
 *   the run's input (its job vanished with Redis and the run was handed over again meanwhile);
 *   dropping it would run the capability a second time. A later final report changes nothing.
 */
export type ReportEvent = RunReport['event'];

/** States a run can still leave (spec §3: completed, failed and cancelled are final). */
export const NON_TERMINAL_STATES = ['queued', 'running', 'retrying'] as const satisfies readonly RunState[];

export interface Transition {
  to: RunState;
  from: readonly RunState[];
  /** True when only the run's current job, at its current attempt, may report it. */
  currentAttemptOnly?: boolean;
}

export const TRANSITIONS: Readonly<Record<ReportEvent, Transition>> = {
  retrying: { to: 'retrying', from: ['running'], currentAttemptOnly: true },
  completed: { to: 'completed', from: NON_TERMINAL_STATES },
  failed: { to: 'failed', from: NON_TERMINAL_STATES },
  // The handler stopped on a cancel request (spec §4.10: cooperative).
  cancelled: { to: 'cancelled', from: NON_TERMINAL_STATES },
};

/** The run as a claim or report finds it. */
export interface RunPosition {
  status: RunState;
  /** Attempts claimed so far (the orchestrator's count). */
  attempts: number;
  /** The current hand-over's job id; null while none was made. */
  jobId: string | null;
}

/** Who reports: the job that claimed and the attempt its claim was given. */
export interface Reporter {
  job_id: string;
  attempt: number;
}

/** Whether a report of `event` from `reporter` moves a run at `position`. */
export function appliesTo(event: ReportEvent, position: RunPosition, reporter: Reporter): boolean {
  const transition = TRANSITIONS[event];
  if (!transition.from.includes(position.status)) return false;
  if (!transition.currentAttemptOnly) return true;
  return position.jobId === reporter.job_id && position.attempts === reporter.attempt;
}

/** Whether job `jobId` may start an attempt of a run at `position` (cancel requests aside). */
export function claimable(position: RunPosition, jobId: string): boolean {
  return (NON_TERMINAL_STATES as readonly RunState[]).includes(position.status) && position.jobId === jobId;
}
