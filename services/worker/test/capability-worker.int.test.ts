import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { enqueueJob, jobQueueName, publishEvent } from '@svc/bus';
import { HtmlToPdfResult, type JobName, PiiRedactResult } from '@svc/capabilities';
import type { RunReport } from '@svc/contracts';
import { FsObjectStore } from '@svc/storage';
import { pollUntil, testRedisUrl } from '@svc/testkit';
import { Queue } from 'bullmq';
import { countLiveWorkers } from '../src/adapters/worker-presence';
import { startWorkerChild, type WorkerChild } from './support/worker-child';
import { startWorkerRig, type WorkerRig } from './support/worker-rig';

// Real worker processes on a bus prefix of their own, the test playing the orchestrator: it
// enqueues capability jobs, answers their claims and reports (support/fake-orchestrator.ts on
// `rpc.orchestrator`) and publishes cancellation requests. Covers pii-redact on a node worker, a
// refused claim, cancelling a running job,
// a worker killed mid-run (stalled-job recovery on another worker, attempt + 1) and html-to-pdf on a
// browser worker with the real chromium (its PDF an artifact in the fs object store of a temp dir).

/** ms: short BullMQ lock and stall check, so a killed worker's job is picked up within seconds. */
const LOCK_MS = 2_000;
const STALLED_INTERVAL_MS = 1_000;

let rig: WorkerRig;
const queues: Queue[] = [];
const children: WorkerChild[] = [];
let storageDir: string;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'capw-objects-'));
  rig = await startWorkerRig('capw');
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.stop(2_000)));
  await Promise.all(queues.map((queue) => queue.close()));
  await rig?.close();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

async function startWorker(runtimes: string): Promise<WorkerChild> {
  const child = await startWorkerChild({
    REDIS_URL: testRedisUrl(),
    BUS_PREFIX: rig.testBus.prefix,
    HEALTH_PORT: '0',
    WORKER_RUNTIMES: runtimes,
    WORKER_CONCURRENCY: '2',
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '5000',
    WORKER_LOCK_DURATION_MS: String(LOCK_MS),
    WORKER_STALLED_INTERVAL_MS: String(STALLED_INTERVAL_MS),
    WORKER_MAX_STALLED_COUNT: '2',
    CRT_SH_URL: rig.fakes.crtShUrl,
    CERTSPOTTER_URL: rig.fakes.certSpotterUrl,
    CRT_PROVIDER_TIMEOUT_MS: '60000',
    CRT_PROVIDER_ATTEMPTS: '1',
    CRT_RUN_DEADLINE_MS: '120000',
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: storageDir,
  });
  children.push(child);
  return child;
}

function queueOf(name: JobName): Queue {
  const queue = new Queue(jobQueueName(name), { connection: rig.redis, prefix: rig.testBus.prefix });
  queues.push(queue);
  return queue;
}

/** pollUntil with every worker's output in the timeout message. */
function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000) {
  const output = () => children.map((child, i) => `--- worker ${i}\n${child.output.join('\n')}`).join('\n');
  return pollUntil(probe, { what, timeoutMs, intervalMs: 50, detail: output });
}

/** `<event>-<attempt>` of each report of a run, in order. */
const reportIds = (runId: string) =>
  rig.orchestrator.reportsOf(runId).map((report) => `${report.event}-${report.attempt}`);
const reportFor = (runId: string, event: RunReport['event']) =>
  waitFor(`a ${event} report of ${runId}`, () =>
    rig.orchestrator.reportsOf(runId).find((report) => report.event === event),
  );
/** Waits until the run's job has claimed it `count` times (each claim is an attempt started). */
const claimed = (runId: string, count = 1) =>
  waitFor(`claim ${count} of ${runId}`, () =>
    rig.orchestrator.claimsOf(runId).length >= count ? true : undefined,
  );

async function finishedJob(queue: Queue, runId: string) {
  return waitFor(`job run-${runId}-1 to finish`, async () => {
    const job = await queue.getJob(`run-${runId}-1`);
    return job?.finishedOn ? job : undefined;
  });
}

/** A crt run whose providers never answer: it runs until cancelled. */
async function startHangingCrtRun(): Promise<string> {
  rig.fakes.setBehaviour('crt.sh', 'hang');
  rig.fakes.setBehaviour('certspotter', 'hang');
  const runId = randomUUID();
  await enqueueJob(
    rig.testBus.bus,
    'capability.crt',
    { run_id: runId, apex: `hang-${runId.slice(0, 8)}.com`, include_first_seen: false, limit: 10 },
    { jobId: `run-${runId}-1` },
  );
  return runId;
}

describe('worker processes: generic capability jobs', () => {
  let nodeWorker: WorkerChild;
  const piiQueue = () => queues.find((q) => q.name === jobQueueName('capability.pii-redact'));
  const crtQueue = () => queues.find((q) => q.name === jobQueueName('capability.crt'));

  beforeAll(async () => {
    queueOf('capability.pii-redact');
    queueOf('capability.crt');
    queueOf('capability.html-to-pdf');
    nodeWorker = await startWorker('node');
  });

  it('a node worker consumes pii-redact jobs and reports a completed PiiRedactResult', async () => {
    const runId = randomUUID();
    const text = 'Mail jane.doe@example.com or call +44 20 7946 0958.';
    await enqueueJob(
      rig.testBus.bus,
      'capability.pii-redact',
      { run_id: runId, input: { text } },
      { jobId: `run-${runId}-1` },
    );
    const completed = await reportFor(runId, 'completed');
    if (completed.event !== 'completed') throw new Error('unreachable');
    const result = PiiRedactResult.parse(completed.result);
    expect(result.redacted_text).not.toContain('jane.doe@example.com');
    expect(result.counts.email).toBe(1);
    expect(result.characters).toBe([...text].length);
    expect(completed.attempt).toBe(1);
    expect(reportIds(runId)).toEqual(['completed-1']);
    expect(rig.orchestrator.claimsOf(runId)).toEqual([{ run_id: runId, job_id: `run-${runId}-1` }]);
  });

  it('skips a job whose claim is refused, without any report', async () => {
    const runId = randomUUID();
    rig.orchestrator.refuse(runId, 'cancelled');
    await enqueueJob(
      rig.testBus.bus,
      'capability.pii-redact',
      { run_id: runId, input: { text: 'nothing to see' } },
      { jobId: `run-${runId}-1` },
    );
    const queue = piiQueue();
    if (!queue) throw new Error('no pii queue');
    expect((await finishedJob(queue, runId)).returnvalue).toEqual({ outcome: 'skipped' });
    expect(reportIds(runId)).toEqual([]);
  });

  it('aborts an active job on run.cancel-requested; a cancelled report follows', async () => {
    const runId = await startHangingCrtRun();
    await claimed(runId);
    await publishEvent(rig.testBus.bus, 'run.cancel-requested', { run_id: runId });
    const cancelled = await reportFor(runId, 'cancelled');
    expect(cancelled.attempt).toBe(1);
    const queue = crtQueue();
    if (!queue) throw new Error('no crt queue');
    expect((await finishedJob(queue, runId)).returnvalue).toEqual({ outcome: 'cancelled' });
    expect(reportIds(runId)).toEqual(['cancelled-1']);
  });

  it('a worker killed mid-run: another picks the job up after the lock lapses and claims attempt 2', async () => {
    const runId = await startHangingCrtRun();
    await claimed(runId);
    const killedAt = Date.now();
    await nodeWorker.kill(); // no shutdown: the job keeps its lock until it lapses
    const successor = await startWorker('node');
    await claimed(runId, 2);
    // Picked up by the stalled-job check, not retried: the killed attempt reported nothing.
    expect(reportIds(runId)).toEqual([]);
    // At most lock + stall interval after the kill (plus start-up of the successor and slack).
    expect(Date.now() - killedAt).toBeLessThan(LOCK_MS + STALLED_INTERVAL_MS + 15_000);
    await publishEvent(rig.testBus.bus, 'run.cancel-requested', { run_id: runId });
    expect((await reportFor(runId, 'cancelled')).attempt).toBe(2);
    nodeWorker = successor;
  });

  it('a browser worker renders html-to-pdf with chromium and announces the browser runtime', async () => {
    await startWorker('browser');
    expect(await countLiveWorkers(rig.redis, rig.testBus.prefix, 'browser')).toBe(1);
    const runId = randomUUID();
    await enqueueJob(
      rig.testBus.bus,
      'capability.html-to-pdf',
      {
        run_id: runId,
        input: { html: '<div style="page-break-after:always">one</div><div>two</div>' },
      },
      { jobId: `run-${runId}-1` },
    );
    const completed = await reportFor(runId, 'completed');
    if (completed.event !== 'completed') throw new Error('unreachable');
    const result = HtmlToPdfResult.parse(completed.result);
    expect(result.pages).toBe(2);
    expect(result.artifact).toBe('document.pdf');
    expect(completed.metrics).toMatchObject({ provider: 'chromium' });
    // The PDF is in object storage under the reported key, with the reported size and SHA-256.
    const key = `artifacts/${runId}/document.pdf`;
    expect(completed.artifacts).toEqual([
      {
        name: 'document.pdf',
        content_type: 'application/pdf',
        size_bytes: result.bytes,
        sha256: result.sha256,
        storage_key: key,
      },
    ]);
    const pdf = await buffer(await new FsObjectStore({ root: storageDir }).get(key));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBe(result.bytes);
    expect(createHash('sha256').update(pdf).digest('hex')).toBe(result.sha256);
  });
});
