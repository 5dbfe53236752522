import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { createRedis, enqueueJob, jobQueueName, type RpcServer } from '@svc/bus';
import { CrtResult } from '@svc/contracts';
import { createLogger } from '@svc/log';
import {
  createTestBus,
  exampleComExpectedObservations,
  type FakeCtProviders,
  pollUntil,
  startFakeCtProviders,
  type TestBus,
  testRedisUrl,
} from '@svc/testkit';
import { Queue } from 'bullmq';
import type { ReportRequest } from '../src/adapters/orchestrator-attempts';
import { FakeOrchestrator } from './support/fake-orchestrator';
import { startWorkerChild, type WorkerChild } from './support/worker-child';

// The real worker process on a bus prefix of its own, with its provider URLs pointed at the fake
// crt.sh / Cert Spotter on loopback. The test plays the orchestrator: it enqueues `capability.crt`
// jobs and answers the worker's claims and reports (support/fake-orchestrator.ts on `rpc.orchestrator`).

const CERTSPOTTER_TOKEN = 'cs-test-token-3f9a1c';
/** ms: per provider attempt in the worker under test (a `hang` costs this per attempt). */
const PROVIDER_TIMEOUT_MS = 1_000;
/** bytes: the worker's response cap, small so a `huge` answer is cut quickly. */
const MAX_BYTES = 1024 * 1024;

let testBus: TestBus;
let fakes: FakeCtProviders;
let worker: WorkerChild;
let orchestratorServer: RpcServer;
/** The test's own connection for inspecting crt jobs and cache keys. */
let redis: ReturnType<typeof createRedis>;
let crtQueue: Queue;
const orchestrator = new FakeOrchestrator();

beforeAll(async () => {
  testBus = createTestBus('crtw');
  redis = createRedis(testRedisUrl(), {
    role: 'worker',
    name: 'crt-worker-test',
    logger: createLogger({ service: 'crt-worker-test', level: 'silent' }),
  });
  crtQueue = new Queue(jobQueueName('capability.crt'), { connection: redis, prefix: testBus.prefix });
  fakes = await startFakeCtProviders();
  orchestratorServer = orchestrator.serve(testBus.bus);
  await orchestratorServer.waitUntilReady();
  worker = await startWorkerChild({
    REDIS_URL: testRedisUrl(),
    BUS_PREFIX: testBus.prefix,
    HEALTH_PORT: '0',
    WORKER_RUNTIMES: 'node',
    WORKER_CONCURRENCY: '4',
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '5000',
    CRT_SH_URL: fakes.crtShUrl,
    CERTSPOTTER_URL: fakes.certSpotterUrl,
    CERTSPOTTER_TOKEN,
    CRT_PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
    CRT_PROVIDER_ATTEMPTS: '2',
    CRT_RUN_DEADLINE_MS: '20000',
    CRT_PROVIDER_MAX_BYTES: String(MAX_BYTES),
  });
});

afterEach(() => fakes.reset());

afterAll(async () => {
  await worker?.stop();
  await orchestratorServer?.close();
  await fakes?.close();
  await crtQueue?.close();
  await redis?.quit();
  await testBus?.close();
});

/** Enqueues one crt run as the orchestrator does (job id `run-<run_id>-<hand-over>`). */
async function startRun(apex: string, options: { include_first_seen?: boolean; limit?: number } = {}) {
  const runId = randomUUID();
  await enqueueJob(
    testBus.bus,
    'capability.crt',
    {
      run_id: runId,
      apex,
      include_first_seen: options.include_first_seen ?? false,
      limit: options.limit ?? 100,
    },
    { jobId: `run-${runId}-1` },
  );
  return runId;
}

/** The reports of a run once it has a terminal one (completed or failed). */
function finalReports(runId: string, timeoutMs = 30_000) {
  return pollUntil(
    () => {
      const mine = orchestrator.reportsOf(runId);
      const terminal = mine.find((r) => r.event === 'completed' || r.event === 'failed');
      return terminal ? { all: mine, terminal } : undefined;
    },
    {
      what: `a terminal report for run ${runId}`,
      timeoutMs,
      intervalMs: 50,
      detail: () => `worker output:\n${worker.output.join('\n')}`,
    },
  );
}

function completedResult(report: ReportRequest): CrtResult {
  if (report.event !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(report)}`);
  return CrtResult.parse(report.result);
}

describe('crt worker (real process, fake providers, real Redis)', () => {
  it('claims, then reports completed with a valid CrtResult built from crt.sh', async () => {
    const runId = await startRun('example.com', { include_first_seen: true, limit: 1000 });
    const { all, terminal } = await finalReports(runId);
    const result = completedResult(terminal);
    const expected = exampleComExpectedObservations()['crt.sh'];
    expect(result.provider).toBe('crt.sh');
    expect(result.observations.map((o) => o.hostname)).toEqual(expected.map((o) => o.hostname));
    expect(result.observations.map((o) => Date.parse(o.first_seen ?? ''))).toEqual(
      expected.map((o) => Date.parse(o.first_seen)),
    );
    expect(result.count).toBe(expected.length);
    expect(result.live_hosts_verified).toBe(false);

    expect(all.map((r) => `${r.event}-${r.attempt}`)).toEqual(['completed-1']);
    expect(orchestrator.claimsOf(runId)).toEqual([{ run_id: runId, job_id: `run-${runId}-1` }]);
    expect(terminal.job_id).toBe(`run-${runId}-1`);
    expect(terminal.event === 'completed' && terminal.metrics).toMatchObject({
      provider: 'crt.sh',
      cache: 'miss',
    });
  });

  it('answers a second run of the same apex from the cache: the provider is called once', async () => {
    const apex = 'cached-apex.com';
    const first = completedResult((await finalReports(await startRun(apex, { limit: 5 }))).terminal);
    const secondRun = await finalReports(await startRun(apex, { limit: 10, include_first_seen: true }));
    const second = completedResult(secondRun.terminal);
    expect(fakes.calls('crt.sh', apex)).toBe(1);
    expect(secondRun.terminal.event === 'completed' && secondRun.terminal.metrics).toEqual({
      provider: 'crt.sh',
      provider_ms: 0,
      cache: 'hit',
    });
    // The cache holds every hostname before the limit: the second run's larger limit is honoured.
    expect(second.observations.slice(0, 5).map((o) => o.hostname)).toEqual(
      first.observations.map((o) => o.hostname),
    );
    expect(second.count).toBeGreaterThan(first.count);
    const cached = await redis.getBuffer(`${testBus.prefix}:crt:cache:${apex}`);
    expect(cached).not.toBeNull();
    expect(JSON.parse(gunzipSync(cached ?? Buffer.alloc(0)).toString('utf8'))).toMatchObject({
      v: 1,
      provider: 'crt.sh',
    });
  });

  it('shares one provider call between concurrent runs of one apex', async () => {
    const apex = 'single-flight.org';
    fakes.setBehaviour('crt.sh', 'delay:500');
    const runIds = await Promise.all([1, 2, 3, 4].map(() => startRun(apex)));
    for (const runId of runIds)
      expect(completedResult((await finalReports(runId)).terminal).provider).toBe('crt.sh');
    expect(fakes.calls('crt.sh', apex)).toBe(1);
  });

  it('fails over to Cert Spotter (with its token) when crt.sh keeps answering 502', async () => {
    const apex = 'failover-502.net';
    fakes.setBehaviour('crt.sh', 'status:502');
    const result = completedResult((await finalReports(await startRun(apex))).terminal);
    expect(result.provider).toBe('certspotter');
    expect(result.count).toBeGreaterThan(0);
    expect(fakes.calls('crt.sh', apex)).toBe(2); // CRT_PROVIDER_ATTEMPTS
    const certSpotterRequests = fakes.requests('certspotter').filter((r) => r.apex === apex);
    expect(certSpotterRequests.length).toBeGreaterThan(0);
    expect(certSpotterRequests.every((r) => r.authorization === `Bearer ${CERTSPOTTER_TOKEN}`)).toBe(true);
  });

  it('fails over when crt.sh cuts its JSON off mid-answer', async () => {
    const apex = 'failover-truncated.net';
    fakes.setBehaviour('crt.sh', 'truncated');
    const result = completedResult((await finalReports(await startRun(apex))).terminal);
    expect(result.provider).toBe('certspotter');
  });

  it('cuts a huge crt.sh answer at CRT_PROVIDER_MAX_BYTES and says so in the summary', async () => {
    const apex = 'huge-answer.io';
    fakes.setBehaviour('crt.sh', `huge:${200 * 1024 * 1024}`);
    const result = completedResult((await finalReports(await startRun(apex, { limit: 1000 }))).terminal);
    expect(result.provider).toBe('crt.sh');
    expect(result.count).toBe(1000);
    expect(result.summary).toMatch(/truncated/);
  });

  it('reports failed (provider_unavailable, naming both) when every provider fails, and caches nothing', async () => {
    const apex = 'both-down.dev';
    fakes.setBehaviour('crt.sh', 'status:502');
    fakes.setBehaviour('certspotter', 'hang');
    const runId = await startRun(apex);
    const { all, terminal } = await finalReports(runId);
    expect(terminal).toMatchObject({
      event: 'failed',
      attempt: 1,
      error: {
        code: 'provider_unavailable',
        message: `crt providers unavailable: crt.sh: HTTP 502 (after 2 attempts); certspotter: timed out after ${PROVIDER_TIMEOUT_MS} ms (after 2 attempts)`,
      },
    });
    expect(all.map((r) => `${r.event}-${r.attempt}`)).toEqual(['failed-1']);
    expect(await redis.exists(`${testBus.prefix}:crt:cache:${apex}`)).toBe(0);

    // A provider outage is a run result, not a job failure: no BullMQ retry.
    const job = await waitForFinishedJob(`run-${runId}-1`);
    expect(job.returnvalue).toEqual({ outcome: 'failed' });
    expect(job.attemptsMade).toBeLessThanOrEqual(1);
    expect(job.failedReason).toBeFalsy();

    // Once the providers are back, the next run fetches again (the failure was not cached).
    fakes.reset();
    expect(completedResult((await finalReports(await startRun(apex))).terminal).provider).toBe('crt.sh');
  });

  it('never writes the Cert Spotter token to its logs', () => {
    expect(worker.output.join('\n')).not.toContain(CERTSPOTTER_TOKEN);
  });
});

function waitForFinishedJob(jobId: string) {
  return pollUntil(
    async () => {
      const job = await crtQueue.getJob(jobId);
      return job?.finishedOn ? job : undefined;
    },
    { what: `job ${jobId} to finish`, intervalMs: 50 },
  );
}
