import { randomUUID } from 'node:crypto';
import { enqueueJob, jobQueueName } from '@svc/bus';
import { capabilityWorkersKey } from '@svc/contracts';
import { pollUntil, testRedisUrl } from '@svc/testkit';
import { Queue } from 'bullmq';
import { startWorkerChild, type WorkerChild } from './support/worker-child';
import { startWorkerRig, type WorkerRig } from './support/worker-rig';

/**
 * Worker pools (issue 25 item 6): two real worker processes of the same runtime, one started with
 * WORKER_CAPABILITIES=crt, the other with WORKER_CAPABILITIES=pii-redact. Each consumes only its
 * capabilities' queues and announces only them (the sets the orchestrator's availability check
 * reads), so a capability whose pool is down waits, truthfully, until that pool is scaled up; the
 * other pool is not touched. The test plays the orchestrator (claims and reports).
 */

let rig: WorkerRig;
const children: WorkerChild[] = [];

beforeAll(async () => {
  rig = await startWorkerRig('pools');
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.stop(2_000)));
  await rig?.close();
});

async function startPool(capabilities: string): Promise<WorkerChild> {
  const child = await startWorkerChild({
    REDIS_URL: testRedisUrl(),
    BUS_PREFIX: rig.testBus.prefix,
    HEALTH_PORT: '0',
    WORKER_RUNTIMES: 'node',
    WORKER_CAPABILITIES: capabilities,
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '5000',
    CRT_SH_URL: rig.fakes.crtShUrl,
    CERTSPOTTER_URL: rig.fakes.certSpotterUrl,
  });
  children.push(child);
  return child;
}

/** Workers whose heartbeat in the capability's set has not lapsed (the orchestrator's check). */
const serving = (slug: string) =>
  rig.redis.zcount(capabilityWorkersKey(rig.testBus.prefix, slug), Date.now(), '+inf');

const completed = (runId: string) =>
  pollUntil(() => rig.orchestrator.reportsOf(runId).some((report) => report.event === 'completed'), {
    what: `a completed report of ${runId}`,
    timeoutMs: 30_000,
    intervalMs: 50,
    detail: () => children.map((child) => child.output.join('\n')).join('\n---\n'),
  });

it('each pool takes only its capabilities; one is scaled up without touching the other', async () => {
  const crtPool = await startPool('crt');
  expect(await serving('crt')).toBe(1);
  expect(await serving('pii-redact')).toBe(0);

  const piiRun = randomUUID();
  await enqueueJob(
    rig.testBus.bus,
    'capability.pii-redact',
    { run_id: piiRun, input: { text: 'Mail jane@example.com' } },
    { jobId: `run-${piiRun}-1` },
  );
  const crtRun = randomUUID();
  await enqueueJob(
    rig.testBus.bus,
    'capability.crt',
    { run_id: crtRun, apex: `pools-${crtRun.slice(0, 8)}.com`, include_first_seen: false, limit: 10 },
    { jobId: `run-${crtRun}-1` },
  );
  // The crt pool works (its job is done) while the pii-redact job, which it does not serve, waits.
  await completed(crtRun);
  const piiQueue = new Queue(jobQueueName('capability.pii-redact'), {
    connection: rig.redis,
    prefix: rig.testBus.prefix,
  });
  try {
    expect(await piiQueue.getJobState(`run-${piiRun}-1`)).toBe('waiting');
    expect(rig.orchestrator.claimsOf(piiRun)).toEqual([]);

    // Scaling the pii-redact pool up: its job is taken; the crt pool is the same process as before.
    await startPool('pii-redact');
    expect(await serving('pii-redact')).toBe(1);
    await completed(piiRun);
    expect(await serving('crt')).toBe(1);
    expect(rig.orchestrator.claimsOf(crtRun)).toHaveLength(1);
    expect(crtPool.output.join('\n')).not.toContain(piiRun);
  } finally {
    await piiQueue.close();
  }
});
