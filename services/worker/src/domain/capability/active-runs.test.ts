import { RunCancelledError } from '@svc/capabilities';
import { ActiveRuns } from './active-runs';

describe('ActiveRuns', () => {
  it('aborts the registered run on cancel, with a RunCancelledError naming it', () => {
    const runs = new ActiveRuns();
    const run = runs.register('run-a');
    expect(run.cancelled).toBe(false);
    expect(runs.cancel('run-a')).toBe(1);
    expect(run.cancelled).toBe(true);
    expect(run.cancelSignal.reason).toBeInstanceOf(RunCancelledError);
    expect(run.cancelSignal.reason).toMatchObject({ runId: 'run-a' });
  });

  it('leaves other runs alone and answers 0 for a run it does not hold', () => {
    const runs = new ActiveRuns();
    const a = runs.register('run-a');
    const b = runs.register('run-b');
    expect(runs.cancel('run-c')).toBe(0);
    expect(runs.cancel('run-b')).toBe(1);
    expect(a.cancelled).toBe(false);
    expect(b.cancelled).toBe(true);
  });

  it('forgets a released run: a later cancel reaches nothing', () => {
    const runs = new ActiveRuns();
    const run = runs.register('run-a');
    run.release();
    run.release(); // idempotent
    expect(runs.size).toBe(0);
    expect(runs.cancel('run-a')).toBe(0);
    expect(run.cancelled).toBe(false);
  });

  it('cancels every registration of one run (a stalled attempt and its successor on one process)', () => {
    const runs = new ActiveRuns();
    const first = runs.register('run-a');
    const second = runs.register('run-a');
    expect(runs.size).toBe(1);
    first.release();
    expect(runs.size).toBe(1);
    expect(runs.cancel('run-a')).toBe(1);
    expect(second.cancelled).toBe(true);
    expect(first.cancelled).toBe(false);
    second.release();
    expect(runs.size).toBe(0);
  });
});
