import { randomUUID } from 'node:crypto';
import type { RunRecord } from '@svc/contracts';
import { waitForRun } from './run-wait';
import type { RunWaiting } from './run-waiter';

function queuedRun(): RunRecord {
  const now = new Date().toISOString();
  return {
    run_id: randomUUID(),
    status: 'queued',
    slug: 'pii-redact',
    client_type: 'api',
    quote_id: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    finished_at: null,
    attempts: 0,
    price_usd: '0',
    runtime: 'node',
    waiting_for_runtime: null,
    cancel_requested_at: null,
    status_message: 'queued',
  };
}

// jest's fake clock (timers and Date): the wait's slices and deadline pass when the test advances
// them, so no test waits in real time and "at once" means "with no time advanced at all".
beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

describe('waitForRun with progress (onChange)', () => {
  it('stops when the waiter answers a run still going at once (at its cap, or closed), without reloading it back to back', async () => {
    const run = queuedRun();
    // RunWaiter.wait past its cap or after close(): the run as given, at once.
    let waits = 0;
    // Only a guard: a wait that asked again would loop forever on the still fake clock; the second
    // ask aborts it instead, so the count below fails rather than the test hanging.
    const guard = new AbortController();
    const refusing: RunWaiting = {
      wait: async (_clientId, given) => {
        waits += 1;
        if (waits > 1) guard.abort();
        return given;
      },
    };
    let reloads = 0;
    const changes: string[] = [];
    const last = await waitForRun(refusing, 'client-1', run, {
      timeoutMs: 2_000,
      signal: guard.signal,
      onChange: async (record) => {
        changes.push(record.status);
      },
      reload: async () => {
        reloads += 1;
        return run;
      },
    });
    // Resolved without the fake clock moving (nothing advances it here): it did not wait out the
    // 2 s deadline, and it asked the waiter once instead of slice after slice.
    expect(last.status).toBe('queued');
    expect(waits).toBe(1);
    expect(reloads).toBeLessThanOrEqual(1);
    expect(changes).toEqual(['queued']);
  });

  it('waits in slices while the waiter holds the run, reporting each status change once', async () => {
    const run = queuedRun();
    let calls = 0;
    // A waiter that holds each slice to its end; the run is running from the second reload on.
    const holding: RunWaiting = {
      wait: (_clientId, given, { timeoutMs }) =>
        new Promise((resolve) => setTimeout(() => resolve(given), timeoutMs)),
    };
    const changes: string[] = [];
    const waiting = waitForRun(holding, 'client-1', run, {
      timeoutMs: 2_500,
      onChange: async (record) => {
        changes.push(record.status);
      },
      reload: async () => {
        calls += 1;
        return calls >= 2 ? { ...run, status: calls >= 3 ? 'completed' : 'running' } : run;
      },
    });
    // Slices of 1 s, 1 s and the 0.5 s left of the deadline, each held to its end by the waiter.
    await jest.advanceTimersByTimeAsync(2_500);
    const last = await waiting;
    expect(last.status).toBe('completed');
    expect(changes).toEqual(['queued', 'running', 'completed']);
    expect(calls).toBe(3);
  });
});
