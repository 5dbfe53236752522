import { RUN_STATES, type RunState } from '@svc/contracts';
import { appliesTo, claimable, type ReportEvent, TRANSITIONS } from './transitions';

const JOB = 'run-3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d-1';
const OTHER_JOB = 'run-3a0c8a56-9b1e-4f7a-8c2d-5e6f7a8b9c0d-2';
const at = (status: RunState, attempts = 1, jobId: string | null = JOB) => ({ status, attempts, jobId });
const current = { job_id: JOB, attempt: 1 };

/** Every (event, state) pair that moves a run reported by its current job and attempt; everything else is a no-op. */
const MOVES: Record<ReportEvent, RunState[]> = {
  retrying: ['running'],
  completed: ['queued', 'running', 'retrying'],
  failed: ['queued', 'running', 'retrying'],
  cancelled: ['queued', 'running', 'retrying'],
};
const EVENTS = Object.keys(MOVES).filter((event): event is ReportEvent => event in TRANSITIONS);

describe('report transitions (issue 15)', () => {
  for (const event of EVENTS) {
    for (const state of RUN_STATES) {
      const expected = MOVES[event].includes(state);
      it(`${event} of the current attempt ${expected ? 'moves' : 'leaves'} a ${state} run`, () => {
        expect(appliesTo(event, at(state), current)).toBe(expected);
      });
    }
  }

  it('moves to the state each event names', () => {
    expect(Object.fromEntries(Object.entries(TRANSITIONS).map(([event, t]) => [event, t.to]))).toEqual({
      retrying: 'retrying',
      completed: 'completed',
      failed: 'failed',
      cancelled: 'cancelled',
    });
  });

  it('never moves a final run', () => {
    for (const event of EVENTS) {
      for (const final of ['completed', 'failed', 'cancelled'] as const) {
        expect(appliesTo(event, at(final), current)).toBe(false);
        expect(appliesTo(event, at(final, 5), { job_id: OTHER_JOB, attempt: 5 })).toBe(false);
      }
    }
  });

  it('retrying only from the current job at its current attempt (a late one does not pull a run back)', () => {
    expect(appliesTo('retrying', at('running', 2), { job_id: JOB, attempt: 1 })).toBe(false);
    expect(appliesTo('retrying', at('running', 2), { job_id: JOB, attempt: 2 })).toBe(true);
    expect(appliesTo('retrying', at('running', 1, OTHER_JOB), current)).toBe(false);
  });

  it('a final outcome applies from any claimed attempt, superseded job included: the first one wins', () => {
    for (const event of ['completed', 'failed', 'cancelled'] as const) {
      expect(appliesTo(event, at('running', 2, OTHER_JOB), current)).toBe(true);
    }
  });
});

describe('claimable', () => {
  it('only by the current job, while the run is not final', () => {
    for (const status of RUN_STATES) {
      const open = status === 'queued' || status === 'running' || status === 'retrying';
      expect(claimable(at(status), JOB)).toBe(open);
      expect(claimable(at(status), OTHER_JOB)).toBe(false);
    }
    expect(claimable(at('queued', 0, null), JOB)).toBe(false);
  });
});
