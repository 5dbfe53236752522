import { RUN_STATE_TRANSITIONS, RUN_STATES, type RunState } from '@svc/contracts';

/**
 * The states a run never leaves, taken from the contract (spec §3, published in the contract
 * manifest as run_state elements): a state with no outgoing transition is terminal.
 */
export const TERMINAL_STATES: ReadonlySet<RunState> = new Set(
  RUN_STATES.filter((state) => RUN_STATE_TRANSITIONS[state].length === 0),
);

/** Whether `state` is one of the contract's run states. */
export function isKnownRunState(state: unknown): state is RunState {
  return typeof state === 'string' && (RUN_STATES as readonly string[]).includes(state);
}

/** Whether `state` is a terminal run state (false for an unknown one: see UnknownRunStateError). */
export function isTerminalState(state: string): boolean {
  return isKnownRunState(state) && TERMINAL_STATES.has(state);
}
