// Cost: ~42 s on 2 cores (65-140 s busy): one 5-service platform; 4 crash points of 7-9 s, each 2 service starts.
import { randomUUID } from 'node:crypto';
import { type FetchResult, pollUntil, type StackReplica, sleep, type TestApiKey } from '@svc/testkit';
import { z } from 'zod';
import { type FaultPlatform, LOAD_SLUG, startFaultPlatform } from './support/platform';

/**
 * Issue 15 "Tests": a crash at each new step of a paid run's path. The service is started with
 * SVC_CRASH_AT=<point> (@svc/service-kit crashPoint: SIGKILL to itself when it gets there), one paid
 * run is made, the process is seen to die at that point (the row shows the step it reached), it is
 * started again without the variable, and the run must end completed, charged exactly once, with no
 * hold open, executed once (except where the design says why not). The client behaves as the API
 * asks: a 503 is retried with the same Idempotency-Key.
 */

const SCOPES = ['capabilities:quote', 'capabilities:run', 'billing:read'];
// ms: a crashed step finished by the restarted service (dispatcher sweep ~1 s, job lock 5 s, restart).
const RECOVERY_MS = 60_000;
// ms: until the armed process reaches its crash point and dies.
const CRASH_MS = 30_000;
const TEST_MS = 150_000;

const QuoteAnswer = z.object({ quote: z.object({ quote_id: z.string() }) });
const RunAnswer = z.object({ run_id: z.string() });

interface RunRow {
  id: string;
  status: string;
  hold_pending: boolean;
  dispatches: number;
  job_id: string | null;
  settled_at: Date | null;
  price_micros: bigint;
}

interface LedgerLine {
  kind: string;
  amount_micros: bigint;
}

let platform: FaultPlatform;
let client: TestApiKey;

beforeAll(async () => {
  platform = await startFaultPlatform({
    privateRedis: false,
    // A job whose worker died (worker.run-finished) is taken again once its lock lapses: 5 s here
    // rather than the fault platform's 10 s, which is long to outlast its SIGSTOPs. Nothing is paused
    // in this file; 5 s (renewed every 2.5 s) still outlasts a busy event loop.
    env: { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '500' },
  });
  client = await platform.stack.createApiKey({ scopes: SCOPES, balanceUsd: '10' });
}, 180_000);

afterAll(async () => {
  await platform?.close();
});

async function runRow(key: string): Promise<RunRow | undefined> {
  const rows = await platform.prisma.$queryRaw<RunRow[]>`
    SELECT id::text, status::text, hold_pending, dispatches, job_id, settled_at, price_micros
    FROM orchestrator.runs WHERE client_id = ${client.clientId}::uuid AND idempotency_key = ${key}`;
  return rows[0];
}

async function ledgerLines(runId: string): Promise<LedgerLine[]> {
  return platform.prisma.$queryRaw<LedgerLine[]>`
    SELECT kind::text, amount_micros FROM wallet.ledger_entries WHERE run_id = ${runId}::uuid ORDER BY created_at`;
}

async function openHolds(runId: string): Promise<number> {
  const rows = await platform.prisma.$queryRaw<Array<{ n: bigint }>>`
    SELECT COUNT(*)::bigint AS n FROM wallet.open_holds WHERE run_id = ${runId}::uuid`;
  return Number(rows[0]?.n ?? 0n);
}

/** One paid run's request, as a client sends it (and re-sends it with the same key after a 503). */
interface PaidRequest {
  key: string;
  body: { input: { text: string }; quote_id: string };
}

async function quoteRun(): Promise<PaidRequest> {
  const key = `crash-${randomUUID()}`;
  const input = { text: `Crash test ${key}: write to jane.doe@example.com.` };
  const quoted = await platform.stack.fetch(`/api/capabilities/${LOAD_SLUG}/quote`, {
    method: 'POST',
    apiKey: client.apiKey,
    json: { input },
  });
  expect(quoted.status).toBe(200);
  return { key, body: { input, quote_id: QuoteAnswer.parse(quoted.json).quote.quote_id } };
}

function postRun(request: PaidRequest): Promise<FetchResult> {
  return platform.stack.fetch(`/api/capabilities/${LOAD_SLUG}/run`, {
    method: 'POST',
    apiKey: client.apiKey,
    headers: { 'idempotency-key': request.key },
    json: request.body,
  });
}

/** Re-sends the run until it is answered 2xx (a 503 must carry Retry-After); the run id. */
async function runUntilAccepted(request: PaidRequest): Promise<string> {
  let last: FetchResult | undefined;
  return pollUntil(
    async () => {
      last = await postRun(request);
      if (last.status === 503) {
        expect(last.headers.get('retry-after')).toMatch(/^\d+$/);
        await sleep(500);
        return undefined;
      }
      expect(last.status === 200 || last.status === 202).toBe(true);
      return RunAnswer.parse(last.json).run_id;
    },
    { timeoutMs: RECOVERY_MS, intervalMs: 0, what: 'the run to be accepted', detail: () => last?.text ?? '' },
  );
}

/** Waits until the armed process is gone and its output names the crash point. */
async function expectCrashed(replica: StackReplica, point: string): Promise<void> {
  await pollUntil(() => replica.pid === undefined, {
    timeoutMs: CRASH_MS,
    intervalMs: 100,
    what: `the process armed with SVC_CRASH_AT=${point} to die`,
    detail: () => replica.logs().slice(-3_000),
  });
  expect(replica.logs()).toContain(`crash point ${point}`);
}

/** The end state every crash must come to: completed, charged its price once, nothing held. */
async function expectSettledOnce(runId: string): Promise<RunRow> {
  let row: RunRow | undefined;
  await pollUntil(
    async () => {
      row = (
        await platform.prisma.$queryRaw<RunRow[]>`
        SELECT id::text, status::text, hold_pending, dispatches, job_id, settled_at, price_micros
        FROM orchestrator.runs WHERE id = ${runId}::uuid`
      )[0];
      return row?.status === 'completed' && row.settled_at !== null;
    },
    {
      timeoutMs: RECOVERY_MS,
      intervalMs: 250,
      what: `run ${runId} completed and settled`,
      detail: () => JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
    },
  );
  const price = row?.price_micros ?? 0n;
  expect(price).toBeGreaterThan(0n);
  expect({ lines: await ledgerLines(runId), open: await openHolds(runId) }).toEqual({
    lines: [
      { kind: 'hold', amount_micros: -price },
      { kind: 'capture', amount_micros: -price },
    ],
    open: 0,
  });
  if (row === undefined) throw new Error('unreachable: polled until found');
  return row;
}

/** Executions of the run that returned, by worker pid (the execution probe's file). */
function finishedExecutions(runId: string): number[] {
  return platform.executions().get(runId)?.finished ?? [];
}

/**
 * Runs `body` with `service` replaced by a process armed with SVC_CRASH_AT=`point`; whatever
 * happens, the armed process is gone and the normal one runs again afterwards (the next test needs
 * the platform whole).
 */
async function withArmed(
  service: 'orchestrator' | 'worker',
  point: string,
  body: (armed: StackReplica) => Promise<void>,
): Promise<void> {
  await platform.stack.stop(service);
  const armed = await platform.stack.startReplica(service, { env: { SVC_CRASH_AT: point } });
  try {
    await body(armed);
  } finally {
    if (armed.pid !== undefined) await armed.stop();
    if (platform.stack.pid(service) === undefined) await platform.stack.start(service);
  }
}

/** The client is told to retry with its key, never that the run failed: it may have been recorded. */
function expectToldToRetry(answer: FetchResult): void {
  expect({
    status: answer.status,
    retryAfter: answer.headers.get('retry-after'),
    body: answer.json,
  }).toEqual({
    status: 503,
    retryAfter: expect.stringMatching(/^\d+$/),
    body: {
      ok: false,
      error: expect.stringMatching(/orchestrator.*may have been recorded.*same Idempotency-Key/),
    },
  });
}

it(
  'orchestrator.run-recorded: the run row is committed, then the orchestrator dies before the hold',
  async () => {
    const point = 'orchestrator.run-recorded';
    await withArmed('orchestrator', point, async (armed) => {
      const request = await quoteRun();
      const answer = await postRun(request);
      expectToldToRetry(answer);
      await expectCrashed(armed, point);
      // It died where the point says: the run is recorded, its hold not confirmed, nothing held yet.
      const recorded = await runRow(request.key);
      expect(recorded).toMatchObject({ hold_pending: true, dispatches: 0 });
      if (recorded === undefined) throw new Error('unreachable');
      expect(await ledgerLines(recorded.id)).toEqual([]);

      await platform.stack.start('orchestrator');
      expect(await runUntilAccepted(request)).toBe(recorded.id);
      await expectSettledOnce(recorded.id);
      expect(finishedExecutions(recorded.id)).toHaveLength(1);
    });
  },
  TEST_MS,
);

it(
  'orchestrator.hold-confirmed: the hold is confirmed and recorded, then the orchestrator dies before the job is queued',
  async () => {
    const point = 'orchestrator.hold-confirmed';
    await withArmed('orchestrator', point, async (armed) => {
      const request = await quoteRun();
      const answer = await postRun(request);
      expectToldToRetry(answer);
      await expectCrashed(armed, point);
      const recorded = await runRow(request.key);
      expect(recorded).toMatchObject({ hold_pending: false, dispatches: 1, status: 'queued' });
      if (recorded === undefined) throw new Error('unreachable');
      expect(await openHolds(recorded.id)).toBe(1);

      await platform.stack.start('orchestrator');
      // The job never reached Redis: the dispatcher hands the run over again, without the client.
      await expectSettledOnce(recorded.id);
      expect(await runUntilAccepted(request)).toBe(recorded.id);
      expect(finishedExecutions(recorded.id)).toHaveLength(1);
    });
  },
  TEST_MS,
);

it(
  'worker.run-finished: the capability returned, then the worker dies before its report',
  async () => {
    const point = 'worker.run-finished';
    await withArmed('worker', point, async (armed) => {
      const armedPid = armed.pid;
      const request = await quoteRun();
      const runId = await runUntilAccepted(request);
      await expectCrashed(armed, point);
      expect(finishedExecutions(runId)).toEqual([armedPid]);
      expect((await runRow(request.key))?.status).not.toBe('completed');

      await platform.stack.start('worker');
      const done = await expectSettledOnce(runId);
      // Executed again, by design: the outcome lived only in the killed worker's memory (a result is
      // recorded only when the orchestrator acknowledges the report), so the job's next attempt runs
      // the capability once more. Allowed because a run is charged once whatever its executions (one
      // capture line per run) and capabilities are pure or idempotent per run id; exactly twice, not more.
      const executions = finishedExecutions(runId);
      expect(executions).toHaveLength(2);
      expect(executions[0]).toBe(armedPid);
      expect(done.status).toBe('completed');
    });
  },
  TEST_MS,
);

it(
  'orchestrator.report-applied: the final report is committed, then the orchestrator dies before settlement',
  async () => {
    const point = 'orchestrator.report-applied';
    await withArmed('orchestrator', point, async (armed) => {
      const request = await quoteRun();
      const runId = await runUntilAccepted(request);
      await expectCrashed(armed, point);
      // Completed in PostgreSQL, the money still held: settlement was never asked for.
      expect(await runRow(request.key)).toMatchObject({ status: 'completed', settled_at: null });
      expect(await openHolds(runId)).toBe(1);

      await platform.stack.start('orchestrator');
      await expectSettledOnce(runId);
      // The worker's report was applied once; re-sending it to the new orchestrator ran nothing again.
      expect(finishedExecutions(runId)).toHaveLength(1);
    });
  },
  TEST_MS,
);
