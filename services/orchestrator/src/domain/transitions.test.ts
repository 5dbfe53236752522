import { RUN_STATES, type RunState } from '@svc/contracts';
import { appliesTo, type ReportEvent, TRANSITIONS } from './transitions';

/** Every (event, state) pair that moves a run; everything else is a no-op. */
const MOVES: Record<ReportEvent, RunState[]> = {
  started: ['queued', 'retrying'],
  retrying: ['queued', 'running'],
  completed: ['queued', 'running', 'retrying'],
  failed: ['queued', 'running', 'retrying'],
};

describe('report transitions', () => {
  for (const event of Object.keys(MOVES) as ReportEvent[]) {
    for (const state of RUN_STATES) {
      const expected = MOVES[event].includes(state);
      it(`${event} ${expected ? 'moves' : 'leaves'} a ${state} run`, () => {
        expect(appliesTo(event, state)).toBe(expected);
      });
    }
  }

  it('moves to the state each event names', () => {
    expect(Object.fromEntries(Object.entries(TRANSITIONS).map(([event, t]) => [event, t.to]))).toEqual({
      started: 'running',
      retrying: 'retrying',
      completed: 'completed',
      failed: 'failed',
    });
  });

  it('never moves a final run (completed before started: the late started is ignored)', () => {
    for (const event of Object.keys(MOVES) as ReportEvent[]) {
      for (const final of ['completed', 'failed', 'cancelled'] as const)
        expect(appliesTo(event, final)).toBe(false);
    }
  });
});
