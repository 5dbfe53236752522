import type { RunRecord, RunState } from '@svc/contracts';
import { ServiceUnavailableError } from '@svc/errors';
import { RunWaiter, type RunWaiterOptions } from './run-waiter';

const CLIENT = '5f0c7a62-3c39-4f4e-9a55-0d3c6f0e8a11';
const OTHER_CLIENT = '0a9b8c7d-6e5f-4a3b-9c2d-1e0f2a3b4c5d';
const RUN = '3e1c9b7a-2f4d-4c8e-9a1b-6d5f4e3c2b1a';
// ms: a poll interval no test outlives, so whatever settles a waiter there was not a poll.
const NEVER = 3_600_000;
// ms: the wait in real-time tests; should the mechanism under test break, the wait ends here with
// a non-terminal record and the status assertion fails (instead of hanging to jest's timeout).
const WAIT_MS = 10_000;

function record(status: RunState, runId = RUN): RunRecord {
  const at = '2026-11-21T10:00:00.000Z';
  return {
    run_id: runId,
    status,
    slug: 'crt',
    client_type: 'api',
    quote_id: runId,
    created_at: at,
    updated_at: at,
    started_at: status === 'queued' ? null : at,
    finished_at: status === 'completed' || status === 'failed' ? at : null,
    attempts: status === 'queued' ? 0 : 1,
    price_usd: '0',
    runtime: 'node',
    waiting_for_runtime: null,
    cancel_requested_at: null,
    status_message: status,
  };
}

/** The orchestrator's view of runs: tests change `status` to make a run progress. */
function fakeRuns(initial: RunState = 'queued') {
  const state = { status: initial, calls: 0, failNext: 0, clients: [] as string[] };
  const getRun = async (clientId: string, runId: string): Promise<RunRecord> => {
    state.calls += 1;
    state.clients.push(clientId);
    if (state.failNext > 0) {
      state.failNext -= 1;
      throw new ServiceUnavailableError('orchestrator service did not answer within 1000 ms');
    }
    return record(state.status, runId);
  };
  return { state, getRun };
}

/** Lets pending promise callbacks (the immediate check) run. */
async function settleMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
}

describe('RunWaiter', () => {
  // Every waiter a test makes is closed after it, so a failing test leaves no timer running.
  const made: RunWaiter[] = [];
  const newWaiter = (options: RunWaiterOptions): RunWaiter => {
    const waiter = new RunWaiter(options);
    made.push(waiter);
    return waiter;
  };
  afterEach(() => {
    for (const waiter of made.splice(0)) waiter.close();
    jest.useRealTimers();
  });

  it('returns a terminal run at once, without loading it', async () => {
    const runs = fakeRuns();
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: NEVER });
    const done = record('completed');
    await expect(waiter.wait(CLIENT, done, { timeoutMs: WAIT_MS })).resolves.toBe(done);
    expect(runs.state.calls).toBe(0);
    expect(waiter.size).toBe(0);
  });

  it('settles with the record an event carries, without any getRun', async () => {
    const runs = fakeRuns('queued');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: NEVER });
    const waiting = waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS });
    await settleMicrotasks();
    expect(waiter.size).toBe(1);
    const done = { ...record('completed'), result: { count: 1 } };
    waiter.notify({ run_id: RUN, status: 'completed', client_id: CLIENT, run: done });
    await expect(waiting).resolves.toBe(done);
    expect(runs.state.calls).toBe(0);
    expect(waiter.size).toBe(0);
  });

  it('does not hand a record to a waiter of another client', async () => {
    const runs = fakeRuns('queued');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: NEVER });
    const waiting = waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS });
    await settleMicrotasks();
    waiter.notify({ run_id: RUN, status: 'completed', client_id: OTHER_CLIENT, run: record('completed') });
    await settleMicrotasks();
    expect(waiter.size).toBe(1);
    // Nor later, from the map of recently finished runs.
    const second = waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS });
    expect(waiter.size).toBe(2);
    waiter.close();
    await expect(Promise.all([waiting, second])).resolves.toEqual([
      expect.objectContaining({ status: 'queued' }),
      expect.objectContaining({ status: 'queued' }),
    ]);
    expect(runs.state.calls).toBe(0);
  });

  it('event first: a run whose event came before the waiter registered settles from the recent map', async () => {
    const runs = fakeRuns('queued'); // getRun would say queued: only the event knows the end
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: NEVER });
    const done = record('failed');
    waiter.notify({ run_id: RUN, status: 'failed', client_id: CLIENT, run: done });
    await expect(waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS })).resolves.toBe(done);
    expect(runs.state.calls).toBe(0);
    expect(waiter.size).toBe(0);
  });

  it('event first without a record: reloads the run at once instead of waiting for a poll', async () => {
    const runs = fakeRuns('completed');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: NEVER });
    waiter.notify({ run_id: RUN, status: 'completed', client_id: CLIENT }); // record too large
    const result = await waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS });
    expect(result.status).toBe('completed');
    expect(runs.state.clients).toEqual([CLIENT]);
  });

  it('without an event, registering loads nothing: the first getRun is the poll', async () => {
    jest.useFakeTimers();
    const runs = fakeRuns('completed');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: 1_000 });
    const waiting = waiter.wait(CLIENT, record('queued'), { timeoutMs: 60_000 });
    await jest.advanceTimersByTimeAsync(999);
    expect(runs.state.calls).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    await expect(waiting).resolves.toMatchObject({ status: 'completed' });
    expect(runs.state.calls).toBe(1);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('an event without a record still wakes the waiter through getRun', async () => {
    const runs = fakeRuns('queued');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: NEVER });
    const waiting = waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS });
    await settleMicrotasks();
    expect(waiter.size).toBe(1);
    runs.state.status = 'failed';
    waiter.notify({ run_id: RUN });
    await expect(waiting).resolves.toMatchObject({ run_id: RUN, status: 'failed' });
    expect(runs.state.clients).toEqual([CLIENT]);
    expect(waiter.size).toBe(0);
  });

  it('forgets finished runs past the entry cap, oldest first', async () => {
    const runs = fakeRuns('queued');
    const waiter = newWaiter({
      getRun: runs.getRun,
      pollIntervalMs: NEVER,
      recentFinished: { maxEntries: 2 },
    });
    const ids = [RUN, '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', '1d2c3b4a-5f6e-4d7c-8b9a-0f1e2d3c4b5a'];
    for (const id of ids)
      waiter.notify({ run_id: id, status: 'completed', client_id: CLIENT, run: record('completed', id) });
    // The two newest settle at once from the map.
    await expect(
      waiter.wait(CLIENT, record('queued', ids[1]), { timeoutMs: WAIT_MS }),
    ).resolves.toMatchObject({
      status: 'completed',
    });
    await expect(
      waiter.wait(CLIENT, record('queued', ids[2]), { timeoutMs: WAIT_MS }),
    ).resolves.toMatchObject({
      status: 'completed',
    });
    // The oldest was evicted: its waiter waits (for a poll that never comes here).
    const oldest = waiter.wait(CLIENT, record('queued', RUN), { timeoutMs: WAIT_MS });
    expect(waiter.size).toBe(1);
    waiter.close();
    await expect(oldest).resolves.toMatchObject({ status: 'queued' });
    expect(runs.state.calls).toBe(0);
  });

  it('forgets finished runs after the TTL', async () => {
    jest.useFakeTimers();
    const runs = fakeRuns('queued');
    const waiter = newWaiter({
      getRun: runs.getRun,
      pollIntervalMs: NEVER,
      recentFinished: { ttlMs: 30_000 },
    });
    waiter.notify({ run_id: RUN, status: 'completed', client_id: CLIENT, run: record('completed') });
    jest.advanceTimersByTime(29_999);
    await expect(waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS })).resolves.toMatchObject({
      status: 'completed',
    });
    jest.advanceTimersByTime(1);
    const late = waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS });
    expect(waiter.size).toBe(1);
    waiter.close();
    await expect(late).resolves.toMatchObject({ status: 'queued' });
    expect(runs.state.calls).toBe(0);
  });

  it('ignores events of other runs', async () => {
    const runs = fakeRuns('queued');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: NEVER });
    const waiting = waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS });
    await settleMicrotasks();
    const callsBefore = runs.state.calls;
    waiter.notify({ run_id: '00000000-0000-4000-8000-000000000000' });
    await settleMicrotasks();
    expect(runs.state.calls).toBe(callsBefore);
    waiter.close();
    await expect(waiting).resolves.toMatchObject({ status: 'queued' });
  });

  it('falls back on polling when the event is lost', async () => {
    jest.useFakeTimers();
    const runs = fakeRuns('queued');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: 1_000 });
    const waiting = waiter.wait(CLIENT, record('queued'), { timeoutMs: 60_000 });
    await jest.advanceTimersByTimeAsync(2_500);
    expect(runs.state.calls).toBe(2); // at 1 s and 2 s
    runs.state.status = 'running';
    await jest.advanceTimersByTimeAsync(1_000);
    runs.state.status = 'completed'; // no notify(): the event was lost
    await jest.advanceTimersByTimeAsync(1_000);
    await expect(waiting).resolves.toMatchObject({ status: 'completed' });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('gives up at the deadline with the last record it saw, and leaves no timer behind', async () => {
    jest.useFakeTimers();
    const runs = fakeRuns('queued');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: 1_000 });
    const waiting = waiter.wait(CLIENT, record('queued'), { timeoutMs: 5_000 });
    await jest.advanceTimersByTimeAsync(1_500);
    runs.state.status = 'running';
    await jest.advanceTimersByTimeAsync(5_000);
    await expect(waiting).resolves.toMatchObject({ status: 'running' });
    expect(waiter.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
    const calls = runs.state.calls;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(runs.state.calls).toBe(calls);
  });

  it('keeps polling through failed loads and reports them', async () => {
    jest.useFakeTimers();
    const runs = fakeRuns('completed');
    runs.state.failNext = 2;
    const errors: unknown[] = [];
    const waiter = newWaiter({
      getRun: runs.getRun,
      pollIntervalMs: 1_000,
      onPollError: (error) => errors.push(error),
    });
    const waiting = waiter.wait(CLIENT, record('queued'), { timeoutMs: 60_000 });
    await jest.advanceTimersByTimeAsync(3_000); // polls at 1 s and 2 s fail, the one at 3 s answers
    await expect(waiting).resolves.toMatchObject({ status: 'completed' });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBeInstanceOf(ServiceUnavailableError);
  });

  it('shares one watch between waiters of the same run and settles them all', async () => {
    const runs = fakeRuns('queued');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: NEVER });
    const first = waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS });
    const second = waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS });
    await settleMicrotasks();
    expect(waiter.size).toBe(2);
    waiter.notify({ run_id: RUN, status: 'completed', client_id: CLIENT, run: record('completed') });
    await expect(Promise.all([first, second])).resolves.toEqual([
      expect.objectContaining({ status: 'completed' }),
      expect.objectContaining({ status: 'completed' }),
    ]);
    expect(waiter.size).toBe(0);
  });

  it('releases a waiter whose signal aborts (the client went away)', async () => {
    const runs = fakeRuns('queued');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: NEVER });
    const controller = new AbortController();
    const waiting = waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS, signal: controller.signal });
    await settleMicrotasks();
    controller.abort();
    await expect(waiting).resolves.toMatchObject({ status: 'queued' });
    expect(waiter.size).toBe(0);
  });

  it('answers at once past maxWaiters instead of holding more requests', async () => {
    const runs = fakeRuns('queued');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: NEVER, maxWaiters: 1 });
    const held = waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS });
    const other = record('queued', '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d');
    await expect(waiter.wait(CLIENT, other, { timeoutMs: WAIT_MS })).resolves.toBe(other);
    expect(waiter.size).toBe(1);
    waiter.close();
    await held;
  });

  it('close() releases every waiter with its last record and refuses to hold new ones', async () => {
    const runs = fakeRuns('running');
    const waiter = newWaiter({ getRun: runs.getRun, pollIntervalMs: NEVER });
    const waiting = waiter.wait(CLIENT, record('queued'), { timeoutMs: WAIT_MS });
    waiter.notify({ run_id: RUN }); // an event without a record: getRun says running
    await settleMicrotasks();
    expect(runs.state.calls).toBe(1);
    waiter.close();
    await expect(waiting).resolves.toMatchObject({ status: 'running' });
    const later = record('queued');
    await expect(waiter.wait(CLIENT, later, { timeoutMs: WAIT_MS })).resolves.toBe(later);
    expect(waiter.size).toBe(0);
  });

  it('rejects a non-positive poll interval', () => {
    expect(() => new RunWaiter({ getRun: fakeRuns().getRun, pollIntervalMs: 0 })).toThrow(RangeError);
  });
});
