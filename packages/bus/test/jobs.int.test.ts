import { randomBytes } from 'node:crypto';
import { memoryLogger } from '@svc/log';
import { Queue } from 'bullmq';
import { pollUntil } from '../../testkit/src/poll';
import { type Bus, BusSealer, createBus, enqueueJob, jobQueueName, processJobs } from '../src';
import { sealingContext } from '../src/sealing';
import { type TestCatalog, testCatalog } from './catalog';
import { busKeys, deletePrefix, redisUrl, sleep, uniquePrefix } from './helpers';

const prefix = uniquePrefix('jobs');
const { logger } = memoryLogger();
let bus: Bus<TestCatalog>;

beforeAll(() => {
  bus = createBus({ catalog: testCatalog, redisUrl, prefix, logger, encryptionKeys: busKeys });
});

afterAll(async () => {
  await bus.close();
  await deletePrefix(prefix);
});

describe('typed job queues', () => {
  it('processes a job and deduplicates by jobId', async () => {
    const seen: string[] = [];
    const first = await enqueueJob(bus, 'system.echo', { message: 'hello' }, { jobId: 'echo-1' });
    const again = await enqueueJob(bus, 'system.echo', { message: 'hello again' }, { jobId: 'echo-1' });
    const other = await enqueueJob(bus, 'system.echo', { message: 'other' });
    expect(first.jobId).toBe('echo-1');
    expect(again.jobId).toBe('echo-1');
    expect(other.jobId).not.toBe('echo-1');

    const processor = processJobs(bus, 'system.echo', async ({ message }, { attempt }) => {
      expect(attempt).toBe(1);
      seen.push(message);
      return { message };
    });
    try {
      await pollUntil(() => seen.length === 2);
      await sleep(200);
      expect(seen.sort()).toEqual(['hello', 'other']);

      // Still deduplicated after completion, while the completed job is retained.
      await enqueueJob(bus, 'system.echo', { message: 'late duplicate' }, { jobId: 'echo-1' });
      await sleep(200);
      expect(seen).not.toContain('late duplicate');

      const queue = new Queue(jobQueueName('system.echo'), { connection: { url: redisUrl }, prefix });
      try {
        expect((await queue.getJob('echo-1'))?.returnvalue).toEqual({ message: 'hello' });
      } finally {
        await queue.close();
      }
    } finally {
      await processor.close();
    }
  });

  it("records a handler's progress on its job", async () => {
    await enqueueJob(bus, 'system.echo', { message: 'progress' }, { jobId: 'echo-progress' });
    let done = false;
    const processor = processJobs(bus, 'system.echo', async ({ message }, { progress }) => {
      await progress({ rewrapped: 3 });
      done = true;
      return { message };
    });
    const queue = new Queue(jobQueueName('system.echo'), { connection: { url: redisUrl }, prefix });
    try {
      await pollUntil(() => done);
      await pollUntil(async () => (await queue.getJob('echo-progress'))?.finishedOn !== undefined);
      expect((await queue.getJob('echo-progress'))?.progress).toEqual({ rewrapped: 3 });
    } finally {
      await queue.close();
      await processor.close();
    }
  });

  it('rejects an invalid payload or job id before enqueueing', async () => {
    // @ts-expect-error message must be a string
    await expect(enqueueJob(bus, 'system.echo', { message: 42 })).rejects.toThrow(TypeError);
    await expect(enqueueJob(bus, 'system.echo', { message: 'x' }, { jobId: 'run:1' })).rejects.toThrow(
      /must not contain/,
    );
  });

  it('fails an invalid queued payload once, without retries (UnrecoverableError)', async () => {
    const queue = new Queue(jobQueueName('system.echo'), { connection: { url: redisUrl }, prefix });
    let handled = 0;
    const processor = processJobs(bus, 'system.echo', async ({ message }) => {
      handled += 1;
      return { message };
    });
    try {
      const sealed = new BusSealer(busKeys).seal(
        { message: ['not', 'a', 'string'] },
        sealingContext.jobData(prefix, jobQueueName('system.echo'), 'system.echo'),
      );
      const job = await queue.add('system.echo', sealed, { attempts: 5 });
      await pollUntil(async () => (await queue.getJobState(job.id ?? '')) === 'failed');
      const failed = await queue.getJob(job.id ?? '');
      expect(failed?.attemptsMade).toBe(1);
      expect(failed?.failedReason).toMatch(/invalid system.echo payload/);
      expect(handled).toBe(0);
    } finally {
      await processor.close();
      await queue.close();
    }
  });

  it('fails a payload that is not sealed under its key, queue and name once, without running it', async () => {
    const queue = new Queue(jobQueueName('system.echo'), { connection: { url: redisUrl }, prefix });
    let handled = 0;
    const processor = processJobs(bus, 'system.echo', async ({ message }) => {
      handled += 1;
      return { message };
    });
    const elsewhere = new BusSealer(busKeys).seal(
      { message: 'sealed for another queue' },
      sealingContext.jobData(prefix, jobQueueName('capability.pii-redact'), 'system.echo'),
    );
    const otherKey = new BusSealer([randomBytes(32)]).seal(
      { message: 'another key' },
      sealingContext.jobData(prefix, jobQueueName('system.echo'), 'system.echo'),
    );
    try {
      for (const data of [{ message: 'plain' }, elsewhere, otherKey]) {
        const job = await queue.add('system.echo', data, { attempts: 5 });
        await pollUntil(async () => (await queue.getJobState(job.id ?? '')) === 'failed');
        const failed = await queue.getJob(job.id ?? '');
        expect(failed?.attemptsMade).toBe(1);
        expect(failed?.failedReason).toMatch(/does not open/);
      }
      expect(handled).toBe(0);
    } finally {
      await processor.close();
      await queue.close();
    }
  });

  it('retries a transient handler failure', async () => {
    let tries = 0;
    const processor = processJobs(bus, 'system.echo', async ({ message }, { attempt }) => {
      tries = attempt;
      if (attempt < 2) throw new Error('transient');
      return { message };
    });
    try {
      await enqueueJob(bus, 'system.echo', { message: 'retry me' }, { jobId: 'retry-1' });
      // First backoff: 0.5 to 1 s (1 s with jitter 0.5).
      await pollUntil(() => tries === 2, { timeoutMs: 5_000 });
    } finally {
      await processor.close();
    }
  });
});
