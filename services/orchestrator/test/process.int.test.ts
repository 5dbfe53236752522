import { randomUUID } from 'node:crypto';
import { enqueueJob, type JobProcessor, processJobs } from '@svc/bus';
import { crtRequestHash } from '../src/domain/request-hash';
import { crtResult, eventually, type Harness, startHarness } from './harness';

// The orchestrator as deployed: its own process (src/main.ts) next to a real wallet process. This
// suite plays the worker: it takes `capability.crt` jobs and answers with `runs.report` jobs.
let h: Harness;
let worker: JobProcessor;
const taken: string[] = [];

beforeAll(async () => {
  // ms: a short dispatcher interval so a run left undispatched is picked up within the test.
  h = await startHarness({ services: ['wallet', 'orchestrator'], env: { RUN_DISPATCH_INTERVAL_MS: '200' } });
  worker = processJobs(h.bus, 'capability.crt', async (job, { attempt }) => {
    taken.push(job.run_id);
    const base = { run_id: job.run_id, attempt };
    await enqueueJob(
      h.bus,
      'runs.report',
      { ...base, event: 'started', at: new Date().toISOString() },
      { jobId: `report-${job.run_id}-started-${attempt}` },
    );
    await enqueueJob(
      h.bus,
      'runs.report',
      { ...base, event: 'completed', at: new Date().toISOString(), result: crtResult(job.apex) },
      { jobId: `report-${job.run_id}-completed-${attempt}` },
    );
    return { outcome: 'completed' };
  });
  await worker.waitUntilReady();
});

afterAll(async () => {
  await worker?.close();
  await h?.close();
});

describe('orchestrator process', () => {
  it('takes a run from startCrtRun through the worker to completed, announcing run.finished', async () => {
    const clientId = randomUUID();
    const { run, replay } = await h.orchestrator.call('startCrtRun', {
      client_id: clientId,
      client_type: 'api',
      input: { apex: 'example.com' },
      idempotency_key: `process-${randomUUID()}`,
    });
    expect(replay).toBe(false);
    await eventually(() =>
      h.finished.some((event) => event.run_id === run.run_id && event.status === 'completed'),
    );
    const done = await h.orchestrator.call('getRun', { client_id: clientId, run_id: run.run_id });
    expect(done).toMatchObject({ status: 'completed', result: crtResult('example.com') });
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
  });

  it('keeps runs across a restart and queues, at start-up, a run committed but never queued', async () => {
    const clientId = randomUUID();
    const { run } = await h.orchestrator.call('startCrtRun', {
      client_id: clientId,
      client_type: 'api',
      input: { apex: 'example.org' },
    });
    await eventually(() => h.finished.some((event) => event.run_id === run.run_id));
    const before = await h.orchestrator.call('getRun', { client_id: clientId, run_id: run.run_id });

    // SIGTERM: a graceful shutdown in the documented order exits 0.
    expect(await h.stack.stop('orchestrator')).toBe(0);
    // What a crash between the commit and the enqueue leaves behind: a queued, undispatched run.
    const orphanId = randomUUID();
    const input = { apex: 'example.net', include_first_seen: false, limit: 10 };
    await h.prisma.run.create({
      data: {
        id: orphanId,
        clientId,
        slug: 'crt',
        status: 'queued',
        clientType: 'api',
        quoteId: orphanId,
        input,
        requestHash: crtRequestHash({ input, clientType: 'api' }),
      },
    });
    await h.stack.start('orchestrator');

    await expect(h.orchestrator.call('getRun', { client_id: clientId, run_id: run.run_id })).resolves.toEqual(
      before,
    );
    await eventually(() =>
      h.finished.some((event) => event.run_id === orphanId && event.status === 'completed'),
    );
    expect(taken.filter((id) => id === orphanId)).toHaveLength(1);
    const orphan = await h.orchestrator.call('getRun', { client_id: clientId, run_id: orphanId });
    expect(orphan).toMatchObject({ status: 'completed', result: { apex: 'example.net' } });
  });
});
