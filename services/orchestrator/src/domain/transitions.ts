import type { RunState } from '@svc/contracts';

/**
 * How a worker's report moves a run (docs/decisions.md C11). A report applies only from the states
 * listed, so reports processed late, out of order or twice change nothing: the database applies
 * these as conditional UPDATEs (`WHERE status = ANY(from)`), which also settles two reports racing.
 */
export type ReportEvent = 'started' | 'retrying' | 'completed' | 'failed';

export interface Transition {
  to: RunState;
  from: readonly RunState[];
}

/** States a run can still leave (spec §3: completed, failed and cancelled are final). */
export const NON_TERMINAL_STATES = ['queued', 'running', 'retrying'] as const satisfies readonly RunState[];

export const TRANSITIONS: Readonly<Record<ReportEvent, Transition>> = {
  // A retried attempt starts again from `retrying`; `running` is not listed, so a redelivered
  // `started` does not move started_at.
  started: { to: 'running', from: ['queued', 'retrying'] },
  retrying: { to: 'retrying', from: ['queued', 'running'] },
  completed: { to: 'completed', from: NON_TERMINAL_STATES },
  failed: { to: 'failed', from: NON_TERMINAL_STATES },
};

/** Whether a report of `event` moves a run that is now in `state`. */
export function appliesTo(event: ReportEvent, state: RunState): boolean {
  return TRANSITIONS[event].from.includes(state);
}
