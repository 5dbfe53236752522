import { randomUUID } from 'node:crypto';
import {
  createRedis,
  enqueueJob,
  type JobProcessor,
  jobQueueName,
  processJobs,
  publishEvent,
  type Subscription,
} from '@svc/bus';
import {
  type CapabilityOutcome,
  type MessageCatalog,
  messageCatalog,
  RetryableRunError,
  RunCancelledError,
} from '@svc/capabilities';
import { type RunReport, runCancelKey } from '@svc/contracts';
import { createLogger } from '@svc/log';
import { createTestBus, pollUntil, type TestBus, testRedisUrl } from '@svc/testkit';
import { Queue } from 'bullmq';
import { ActiveRuns } from '../src/domain/capability/active-runs';
import { subscribeCancelRequests } from '../src/handlers/cancel-requests';
import { capabilityJobHandler } from '../src/handlers/capability-job';

// The generic capability job (handlers/capability-job.ts) in-process on a real Redis, on the
// pii-redact queue with runners scripted per run: the cancel key, cancellation of a running job
// through `run.cancel-requested`, retryable errors with words of their own.

const logger = createLogger({ service: 'capability-job-test', level: 'silent' });
type Script = (signal: AbortSignal) => Promise<CapabilityOutcome>;
const scripts = new Map<string, Script>();
const reports: { jobId: string; report: RunReport }[] = [];
/** Runs whose runner has been entered (so a cancel is sent while it runs). */
const entered = new Set<string>();
let testBus: TestBus<MessageCatalog>;
let activeRuns: ActiveRuns;
let consumers: JobProcessor[] = [];
let cancels: Subscription;
let redis: ReturnType<typeof createRedis>;
let queue: Queue;

beforeAll(async () => {
  testBus = createTestBus('capj', messageCatalog);
  activeRuns = new ActiveRuns();
  cancels = subscribeCancelRequests(testBus.bus, activeRuns, logger);
  await cancels.waitUntilReady();
  const handler = capabilityJobHandler(
    'capability.pii-redact',
    { bus: testBus.bus, logger, activeRuns },
    async (payload: { run_id: string }, signal) => {
      entered.add(payload.run_id);
      const script = scripts.get(payload.run_id);
      if (!script) throw new Error(`no script for ${payload.run_id}`);
      return script(signal);
    },
  );
  consumers = [
    processJobs(testBus.bus, 'capability.pii-redact', handler, { concurrency: 4 }),
    processJobs(
      testBus.bus,
      'runs.report',
      async (report, context) => {
        reports.push({ jobId: context.jobId, report });
        return { applied: true };
      },
      { concurrency: 8 },
    ),
  ];
  await Promise.all(consumers.map((c) => c.waitUntilReady()));
  redis = createRedis(testRedisUrl(), { role: 'worker', name: 'capability-job-test', logger });
  queue = new Queue(jobQueueName('capability.pii-redact'), { connection: redis, prefix: testBus.prefix });
});

afterAll(async () => {
  await Promise.all(consumers.map((c) => c.close()));
  await cancels?.close();
  await queue?.close();
  await redis?.quit();
  await testBus.close();
});

async function start(script: Script): Promise<string> {
  const runId = randomUUID();
  scripts.set(runId, script);
  await enqueueJob(
    testBus.bus,
    'capability.pii-redact',
    { run_id: runId, input: { text: 'call 555 0100' } },
    { jobId: `run-${runId}` },
  );
  return runId;
}

function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  return pollUntil(probe, { what, timeoutMs: 20_000 });
}

async function finishedJob(runId: string) {
  return waitFor(`job of ${runId} to finish`, async () => {
    const job = await queue.getJob(`run-${runId}`);
    return job?.finishedOn ? job : undefined;
  });
}

const reportIds = (runId: string) =>
  reports
    .filter((r) => r.report.run_id === runId)
    .map((r) => r.jobId)
    .sort();

/** A runner that waits until its signal aborts, then rejects with the signal's reason. */
const untilAborted: Script = (signal) =>
  new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

describe('capability job handler', () => {
  it('reports started and completed (result, metrics) with attempt 1', async () => {
    const runId = await start(async () => ({
      kind: 'completed',
      result: { ok: 'yes' },
      metrics: { provider: 'unit', provider_ms: 3 },
    }));
    expect((await finishedJob(runId)).returnvalue).toEqual({ outcome: 'completed' });
    await waitFor('reports', () => (reportIds(runId).length === 2 ? true : undefined));
    expect(reportIds(runId)).toEqual([`report-${runId}-completed-1`, `report-${runId}-started-1`]);
    expect(reports.find((r) => r.jobId === `report-${runId}-completed-1`)?.report).toMatchObject({
      event: 'completed',
      attempt: 1,
      result: { ok: 'yes' },
      metrics: { provider: 'unit', provider_ms: 3 },
    });
  });

  it('skips a job whose run has its cancel key set: no report, runner never called', async () => {
    const runId = randomUUID();
    await testBus.bus.redis.set(runCancelKey(testBus.prefix, runId), '1', 'PX', 60_000);
    scripts.set(runId, async () => ({ kind: 'completed', result: {} }));
    await enqueueJob(
      testBus.bus,
      'capability.pii-redact',
      { run_id: runId, input: { text: 'x' } },
      { jobId: `run-${runId}` },
    );
    expect((await finishedJob(runId)).returnvalue).toEqual({ outcome: 'skipped' });
    await new Promise((resolve) => setTimeout(resolve, 200)); // a report would be enqueued by now
    expect(reportIds(runId)).toEqual([]);
    expect(entered.has(runId)).toBe(false);
  });

  it('reports cancelled (not skipped) when the key is set before a later attempt of a started run', async () => {
    let calls = 0;
    const runId = await start(async () => {
      calls += 1;
      // The run is running and its cancel is requested while no worker holds the job.
      await testBus.bus.redis.set(runCancelKey(testBus.prefix, runId), '1', 'PX', 60_000);
      throw new Error('worker lost the attempt');
    });
    expect((await finishedJob(runId)).returnvalue).toEqual({ outcome: 'cancelled' });
    expect(calls).toBe(1);
    await waitFor('reports', () => (reportIds(runId).length === 3 ? true : undefined));
    expect(reportIds(runId)).toEqual([
      `report-${runId}-cancelled-2`,
      `report-${runId}-retrying-1`,
      `report-${runId}-started-1`,
    ]);
  });

  it('aborts a running run on run.cancel-requested and reports cancelled', async () => {
    let reason: unknown;
    const runId = await start((signal) =>
      untilAborted(signal).catch((err: unknown) => {
        reason = err;
        throw err;
      }),
    );
    const other = await start(untilAborted);
    await waitFor('both runners to start', () =>
      entered.has(runId) && entered.has(other) ? true : undefined,
    );
    await publishEvent(testBus.bus, 'run.cancel-requested', { run_id: runId });
    expect((await finishedJob(runId)).returnvalue).toEqual({ outcome: 'cancelled' });
    expect(reason).toBeInstanceOf(RunCancelledError);
    await waitFor('cancelled report', () => (reportIds(runId).length === 2 ? true : undefined));
    expect(reportIds(runId)).toEqual([`report-${runId}-cancelled-1`, `report-${runId}-started-1`]);

    // The other run was not touched; cancelling it ends it the same way.
    expect(reportIds(other)).toEqual([`report-${other}-started-1`]);
    await publishEvent(testBus.bus, 'run.cancel-requested', { run_id: other });
    expect((await finishedJob(other)).returnvalue).toEqual({ outcome: 'cancelled' });
    expect(activeRuns.size).toBe(0);
  });

  it('reports cancelled, not failed, when the cancel cut the work short into a failed outcome', async () => {
    const runId = await start(async (signal) => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return { kind: 'failed', error: { code: 'provider_unavailable', message: 'aborted' } };
    });
    await waitFor('runner to start', () => (entered.has(runId) ? true : undefined));
    await publishEvent(testBus.bus, 'run.cancel-requested', { run_id: runId });
    expect((await finishedJob(runId)).returnvalue).toEqual({ outcome: 'cancelled' });
    await waitFor('reports', () => (reportIds(runId).length === 2 ? true : undefined));
    expect(reportIds(runId)).toContain(`report-${runId}-cancelled-1`);
  });

  it('reports a domain failure as failed without a retry', async () => {
    const runId = await start(async () => ({
      kind: 'failed',
      error: { code: 'render_failed', message: 'html-to-pdf: the document could not be rendered to PDF' },
    }));
    const job = await finishedJob(runId);
    expect(job.returnvalue).toEqual({ outcome: 'failed' });
    expect(job.attemptsMade).toBeLessThanOrEqual(1);
    await waitFor('reports', () => (reportIds(runId).length === 2 ? true : undefined));
    expect(reports.find((r) => r.jobId === `report-${runId}-failed-1`)?.report).toMatchObject({
      error: { code: 'render_failed' },
    });
  });

  it('retries a RetryableRunError with its own words, then fails with its error on the last attempt', async () => {
    const error = { code: 'timeout', message: 'html-to-pdf: rendering took longer than 5 ms' };
    const runId = await start(async () => {
      throw new RetryableRunError(error);
    });
    const job = await finishedJob(runId);
    expect(job.returnvalue).toEqual({ outcome: 'failed' });
    await waitFor('reports', () => (reportIds(runId).length === 6 ? true : undefined));
    expect(reportIds(runId)).toEqual(
      [1, 2, 3]
        .flatMap((n) => [
          `report-${runId}-started-${n}`,
          `report-${runId}-${n < 3 ? 'retrying' : 'failed'}-${n}`,
        ])
        .sort(),
    );
    const byId = (id: string) => reports.find((r) => r.jobId === id)?.report;
    expect(byId(`report-${runId}-retrying-1`)).toMatchObject({
      error: 'html-to-pdf: rendering took longer than 5 ms (attempt 1 of 3)',
    });
    expect(byId(`report-${runId}-failed-3`)).toMatchObject({ error });
  });
});
