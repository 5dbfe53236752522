import { needsWorkerCheck, type StatusFacts, statusMessage, waitingForRuntime } from './status-message';

const BASE: StatusFacts = {
  status: 'queued',
  attempts: 0,
  executionStatus: 'supported',
  runtime: 'node',
  lastError: null,
  cancelRequestedAt: null,
  waitingForRuntime: null,
};

function message(parts: Partial<StatusFacts>): string {
  return statusMessage({ ...BASE, ...parts });
}

describe('statusMessage (docs/decisions.md L-A)', () => {
  it('queued: waiting for a worker, or for one of a runtime none of which is up', () => {
    expect(message({})).toBe('queued: waiting for a worker');
    expect(message({ waitingForRuntime: 'browser' })).toBe(
      'queued: waiting for a worker with runtime browser; none is up yet, the run starts when one is',
    );
  });

  it('running: the attempt, and that it was picked up again after attempt 1', () => {
    expect(message({ status: 'running', attempts: 1 })).toBe('running (attempt 1)');
    expect(message({ status: 'running', attempts: 2 })).toBe(
      'running (attempt 2; picked up again after the previous attempt stopped)',
    );
    // attempts is only 0 for a run whose started report has not been applied: shown as the first.
    expect(message({ status: 'running', attempts: 0 })).toBe('running (attempt 1)');
  });

  it('running with a cancellation requested says when', () => {
    const at = new Date('2026-11-21T10:00:00.000Z');
    expect(message({ status: 'running', attempts: 3, cancelRequestedAt: at })).toBe(
      'running (attempt 3; picked up again after the previous attempt stopped); cancellation requested at 2026-11-21T10:00:00.000Z',
    );
  });

  it('retrying: which attempt failed and why', () => {
    expect(message({ status: 'retrying', attempts: 1, lastError: 'browser crashed' })).toBe(
      'retrying: attempt 1 failed (browser crashed); the next attempt starts after a backoff',
    );
    expect(message({ status: 'retrying', attempts: 2 })).toBe(
      'retrying: attempt 2 failed; the next attempt starts after a backoff',
    );
  });

  it('final states', () => {
    expect(message({ status: 'completed' })).toBe('completed');
    expect(message({ status: 'completed', executionStatus: 'plan_only' })).toBe(
      'completed: plan ready; the server ran nothing',
    );
    expect(message({ status: 'failed', error: { code: 'internal', message: 'internal error' } })).toBe(
      'failed: internal error',
    );
    expect(message({ status: 'cancelled', cancelRequestedAt: new Date() })).toBe('cancelled');
  });
});

describe('waitingForRuntime / needsWorkerCheck', () => {
  const browser = { executionStatus: 'requires_worker', runtime: 'browser' };

  it('only queued or retrying requires_worker runs are checked and can wait', () => {
    for (const status of ['queued', 'retrying'] as const) {
      expect(needsWorkerCheck({ status, ...browser })).toBe(true);
      expect(waitingForRuntime({ status, ...browser }, false)).toBe('browser');
      expect(waitingForRuntime({ status, ...browser }, true)).toBeNull();
      expect(waitingForRuntime({ status, ...browser }, undefined)).toBeNull();
    }
    for (const status of ['running', 'completed', 'failed', 'cancelled'] as const) {
      expect(needsWorkerCheck({ status, ...browser })).toBe(false);
      expect(waitingForRuntime({ status, ...browser }, false)).toBeNull();
    }
    expect(needsWorkerCheck({ status: 'queued', executionStatus: 'supported' })).toBe(false);
    expect(
      waitingForRuntime({ status: 'queued', executionStatus: 'supported', runtime: 'node' }, false),
    ).toBeNull();
  });
});
