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
import { createLogger } from '@svc/log';
import { createTestBus, pollUntil, type TestBus, testRedisUrl } from '@svc/testkit';
import { Queue } from 'bullmq';
import { ActiveRuns } from '../src/domain/capability/active-runs';
import { subscribeCancelRequests } from '../src/handlers/cancel-requests';
import { capabilityJobHandler } from '../src/handlers/capability-job';
import { FakeOrchestrator } from './support/fake-orchestrator';

// The generic capability job (handlers/capability-job.ts) in-process on a real Redis, on the
// pii-redact queue with runners scripted per run, against an orchestrator kept in memory
// (support/fake-orchestrator.ts): claims (refused ones run nothing), cancellation of a running job
// through `run.cancel-requested`, retryable errors with words of their own, and reports asked
// again until the orchestrator answers.

const logger = createLogger({ service: 'capability-job-test', level: 'silent' });
type Script = (signal: AbortSignal) => Promise<CapabilityOutcome>;
const scripts = new Map<string, Script>();
/** Times each run's runner was entered. */
const entered = new Map<string, number>();
const orchestrator = new FakeOrchestrator();
/** Short pauses between tries; a final report is given up after 3 s (then the job is retried). */
const ASK = {
  claim: { firstDelayMs: 10, maxDelayMs: 50, giveUpAfterMs: 3_000 },
  final: { firstDelayMs: 10, maxDelayMs: 50, giveUpAfterMs: 3_000 },
  retrying: { firstDelayMs: 10, maxDelayMs: 50, giveUpAfterMs: 1_000 },
};
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
    { attempts: orchestrator.port, logger, activeRuns, ask: ASK },
    async (payload: { run_id: string }, signal) => {
      entered.set(payload.run_id, (entered.get(payload.run_id) ?? 0) + 1);
      const script = scripts.get(payload.run_id);
      if (!script) throw new Error(`no script for ${payload.run_id}`);
      return script(signal);
    },
  );
  consumers = [processJobs(testBus.bus, 'capability.pii-redact', handler, { concurrency: 4 })];
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

const jobIdOf = (runId: string) => `run-${runId}-1`;

async function start(script: Script, runId = randomUUID()): Promise<string> {
  scripts.set(runId, script);
  await enqueueJob(
    testBus.bus,
    'capability.pii-redact',
    { run_id: runId, input: { text: 'call 555 0100' } },
    { jobId: jobIdOf(runId) },
  );
  return runId;
}

function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  return pollUntil(probe, { what, timeoutMs: 20_000 });
}

async function finishedJob(runId: string) {
  return waitFor(`job of ${runId} to finish`, async () => {
    const job = await queue.getJob(jobIdOf(runId));
    return job?.finishedOn ? job : undefined;
  });
}

/** `<event>-<attempt>` of each answered report of a run, in order. */
const reportsOf = (runId: string) =>
  orchestrator.reportsOf(runId).map((report) => `${report.event}-${report.attempt}`);

/** A runner that waits until its signal aborts, then rejects with the signal's reason. */
const untilAborted: Script = (signal) =>
  new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

describe('capability job handler', () => {
  it('claims with its job id, then reports completed (result, metrics) with the attempt it was given', async () => {
    const runId = await start(async () => ({
      kind: 'completed',
      result: { ok: 'yes' },
      metrics: { provider: 'unit', provider_ms: 3 },
    }));
    expect((await finishedJob(runId)).returnvalue).toEqual({ outcome: 'completed' });
    expect(orchestrator.claimsOf(runId)).toEqual([{ run_id: runId, job_id: jobIdOf(runId) }]);
    expect(orchestrator.reportsOf(runId)).toEqual([
      expect.objectContaining({
        event: 'completed',
        run_id: runId,
        job_id: jobIdOf(runId),
        attempt: 1,
        result: { ok: 'yes' },
        metrics: { provider: 'unit', provider_ms: 3 },
      }),
    ]);
  });

  for (const reason of ['final', 'cancelled', 'superseded', 'unknown'] as const) {
    it(`does not run a job whose claim is refused (${reason}): skipped, no report`, async () => {
      const runId = randomUUID();
      orchestrator.refuse(runId, reason);
      await start(async () => ({ kind: 'completed', result: {} }), runId);
      expect((await finishedJob(runId)).returnvalue).toEqual({ outcome: 'skipped' });
      expect(entered.has(runId)).toBe(false);
      expect(orchestrator.claimsOf(runId)).toHaveLength(1);
      expect(reportsOf(runId)).toEqual([]);
    });
  }

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
    expect(reportsOf(runId)).toEqual(['cancelled-1']);

    // The other run was not touched; cancelling it ends it the same way.
    expect(reportsOf(other)).toEqual([]);
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
    expect(reportsOf(runId)).toEqual(['cancelled-1']);
  });

  it('reports a domain failure as failed without a retry', async () => {
    const runId = await start(async () => ({
      kind: 'failed',
      error: { code: 'render_failed', message: 'html-to-pdf: the document could not be rendered to PDF' },
    }));
    const job = await finishedJob(runId);
    expect(job.returnvalue).toEqual({ outcome: 'failed' });
    expect(job.attemptsMade).toBeLessThanOrEqual(1);
    expect(orchestrator.reportsOf(runId)).toEqual([
      expect.objectContaining({
        event: 'failed',
        attempt: 1,
        error: expect.objectContaining({ code: 'render_failed' }),
      }),
    ]);
  });

  it('retries a RetryableRunError with its own words (a claim per try), then fails with its error', async () => {
    const error = { code: 'timeout', message: 'html-to-pdf: rendering took longer than 5 ms' };
    const runId = await start(async () => {
      throw new RetryableRunError(error);
    });
    const job = await finishedJob(runId);
    expect(job.returnvalue).toEqual({ outcome: 'failed' });
    expect(orchestrator.claimsOf(runId)).toHaveLength(3);
    expect(reportsOf(runId)).toEqual(['retrying-1', 'retrying-2', 'failed-3']);
    const [first, , last] = orchestrator.reportsOf(runId);
    expect(first).toMatchObject({ error: 'html-to-pdf: rendering took longer than 5 ms (attempt 1 of 3)' });
    expect(last).toMatchObject({ error });
  });

  it('holds a result until the orchestrator answers: the job completes only after the report is acknowledged', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runId = await start(async () => {
      await gate;
      return { kind: 'completed', result: { ok: 'late' } };
    });
    await waitFor('runner to start', () => (entered.has(runId) ? true : undefined));
    const before = orchestrator.unanswered;
    orchestrator.failReports(Number.POSITIVE_INFINITY);
    release();
    await waitFor('several unanswered report calls', () =>
      orchestrator.unanswered - before >= 3 ? true : undefined,
    );
    // Still holding the result: the job is active, nothing recorded yet.
    expect(await (await queue.getJob(jobIdOf(runId)))?.getState()).toBe('active');
    expect(reportsOf(runId)).toEqual([]);
    orchestrator.answerReports();
    expect((await finishedJob(runId)).returnvalue).toEqual({ outcome: 'completed' });
    expect(reportsOf(runId)).toEqual(['completed-1']);
    expect(entered.get(runId)).toBe(1);
  });

  it('gives up holding a result after its bound: BullMQ retries the job, whose claim then says final', async () => {
    const runId = await start(async () => ({ kind: 'completed', result: { ok: 'lost?' } }));
    orchestrator.failReports(Number.POSITIVE_INFINITY);
    await waitFor('the first attempt to run', () => (entered.has(runId) ? true : undefined));
    // The report did land after all (the answer was what got lost): the next claim is refused.
    orchestrator.refuse(runId, 'final');
    const job = await finishedJob(runId);
    orchestrator.answerReports();
    expect(job.returnvalue).toEqual({ outcome: 'skipped' });
    expect(entered.get(runId)).toBe(1);
    expect(orchestrator.claimsOf(runId)).toHaveLength(2);
  });
});
