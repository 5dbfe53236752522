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

describe('waitForRun with progress (onChange)', () => {
  it('stops when the waiter answers a run still going at once (at its cap, or closed), without reloading it back to back', async () => {
    const run = queuedRun();
    // RunWaiter.wait past its cap or after close(): the run as given, at once.
    const refusing: RunWaiting = { wait: async (_clientId, given) => given };
    let reloads = 0;
    const changes: string[] = [];
    const started = Date.now();
    const last = await waitForRun(refusing, 'client-1', run, {
      timeoutMs: 2_000,
      onChange: async (record) => {
        changes.push(record.status);
      },
      reload: async () => {
        reloads += 1;
        return run;
      },
    });
    expect(last.status).toBe('queued');
    expect(Date.now() - started).toBeLessThan(500);
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
    const last = await waitForRun(holding, 'client-1', run, {
      timeoutMs: 2_500,
      onChange: async (record) => {
        changes.push(record.status);
      },
      reload: async () => {
        calls += 1;
        return calls >= 2 ? { ...run, status: calls >= 3 ? 'completed' : 'running' } : run;
      },
    });
    expect(last.status).toBe('completed');
    expect(changes).toEqual(['queued', 'running', 'completed']);
    expect(calls).toBe(3);
  });
});
