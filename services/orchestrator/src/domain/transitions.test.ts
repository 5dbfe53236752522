import { RUN_STATES, type RunState } from '@svc/contracts';
import { appliesTo, type ReportEvent, TRANSITIONS } from './transitions';

/** Every (event, state) pair that moves a run reported by its current attempt; everything else is a no-op. */
const MOVES: Record<ReportEvent, RunState[]> = {
  started: ['queued', 'retrying'],
  retrying: ['queued', 'running'],
  completed: ['queued', 'running', 'retrying'],
  failed: ['queued', 'running', 'retrying'],
  cancelled: ['queued', 'running', 'retrying'],
};
const EVENTS = Object.keys(MOVES).filter((event): event is ReportEvent => event in TRANSITIONS);

describe('report transitions', () => {
  for (const event of EVENTS) {
    for (const state of RUN_STATES) {
      const expected = MOVES[event].includes(state);
      it(`${event} of the current attempt ${expected ? 'moves' : 'leaves'} a ${state} run`, () => {
        expect(appliesTo(event, { status: state, attempts: 1 }, 1)).toBe(expected);
      });
    }
  }

  it('moves to the state each event names', () => {
    expect(Object.fromEntries(Object.entries(TRANSITIONS).map(([event, t]) => [event, t.to]))).toEqual({
      started: 'running',
      retrying: 'retrying',
      completed: 'completed',
      failed: 'failed',
      cancelled: 'cancelled',
    });
  });

  it('never moves a final run (completed before started: the late started is ignored)', () => {
    for (const event of EVENTS) {
      for (const final of ['completed', 'failed', 'cancelled'] as const) {
        expect(appliesTo(event, { status: final, attempts: 1 }, 1)).toBe(false);
        expect(appliesTo(event, { status: final, attempts: 1 }, 5)).toBe(false);
      }
    }
  });

  describe('stalled-job recovery (docs/decisions.md L-C)', () => {
    it('a started of a newer attempt moves a running run on (the first worker died)', () => {
      expect(appliesTo('started', { status: 'running', attempts: 1 }, 2)).toBe(true);
      expect(appliesTo('started', { status: 'running', attempts: 2 }, 3)).toBe(true);
    });

    it('a redelivered or older started leaves a running run alone', () => {
      expect(appliesTo('started', { status: 'running', attempts: 2 }, 2)).toBe(false);
      expect(appliesTo('started', { status: 'running', attempts: 2 }, 1)).toBe(false);
    });

    it('a late retrying of an older attempt does not pull back a run running a newer one', () => {
      expect(appliesTo('retrying', { status: 'running', attempts: 2 }, 1)).toBe(false);
      expect(appliesTo('retrying', { status: 'running', attempts: 2 }, 2)).toBe(true);
    });
  });

  it('cancelled ends a run from any non-final state (cooperative stop, spec §4.10)', () => {
    for (const status of ['queued', 'running', 'retrying'] as const) {
      expect(appliesTo('cancelled', { status, attempts: 1 }, 1)).toBe(true);
    }
  });
});
