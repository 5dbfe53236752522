import type { RunState } from '@svc/contracts';

/**
 * How a worker's report moves a run (docs/decisions.md C11, L-A). A report applies only from the
 * states listed, so reports processed late, out of order or twice change nothing: the database
 * applies these as conditional UPDATEs (transitionCondition in reports.ts mirrors appliesTo), which
 * also settles two reports racing.
 */
export type ReportEvent = 'started' | 'retrying' | 'completed' | 'failed' | 'cancelled';

export interface Transition {
  to: RunState;
  from: readonly RunState[];
  /**
   * States the event also moves, but only when the report's attempt is newer than the run's
   * `attempts`: a `started` of attempt 2 while the run is `running` attempt 1 is BullMQ's
   * stalled-job recovery (the first worker died), not a redelivery.
   */
  fromWhenNewerAttempt?: readonly RunState[];
  /** True when a report of an attempt older than the run's `attempts` must not move it. */
  notFromOlderAttempt?: boolean;
}

/** States a run can still leave (spec §3: completed, failed and cancelled are final). */
const NON_TERMINAL_STATES = ['queued', 'running', 'retrying'] as const satisfies readonly RunState[];

export const TRANSITIONS: Readonly<Record<ReportEvent, Transition>> = {
  // A redelivered `started` of the same attempt does not move started_at (running is only left
  // for a newer attempt).
  started: { to: 'running', from: ['queued', 'retrying'], fromWhenNewerAttempt: ['running'] },
  // A late `retrying` of attempt 1 must not pull back a run already running attempt 2.
  retrying: { to: 'retrying', from: ['queued', 'running'], notFromOlderAttempt: true },
  completed: { to: 'completed', from: NON_TERMINAL_STATES },
  failed: { to: 'failed', from: NON_TERMINAL_STATES },
  // The handler stopped on a cancel request (spec §4.10: cooperative).
  cancelled: { to: 'cancelled', from: NON_TERMINAL_STATES },
};

/** The run as a report finds it. */
export interface RunPosition {
  status: RunState;
  /** Highest attempt reported so far. */
  attempts: number;
}

/** Whether a report of `event` from attempt `attempt` moves a run at `position`. */
export function appliesTo(event: ReportEvent, position: RunPosition, attempt: number): boolean {
  const transition = TRANSITIONS[event];
  if (transition.notFromOlderAttempt && attempt < position.attempts) return false;
  if (transition.from.includes(position.status)) return true;
  return (transition.fromWhenNewerAttempt ?? []).includes(position.status) && position.attempts < attempt;
}
