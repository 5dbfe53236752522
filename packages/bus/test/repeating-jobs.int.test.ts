import { memoryLogger } from '@svc/log';
import { Queue } from 'bullmq';
import { pollUntil } from '../../testkit/src/poll';
import { type Bus, createBus, jobQueueName, openJobData, processJobs, scheduleRepeatingJob } from '../src';
import { type TestCatalog, testCatalog } from './catalog';
import { busKeys, deletePrefix, redisUrl, uniquePrefix } from './helpers';

const prefix = uniquePrefix('repeat');
const { logger } = memoryLogger();
let bus: Bus<TestCatalog>;
let queue: Queue;

beforeAll(() => {
  bus = createBus({ catalog: testCatalog, redisUrl, prefix, logger, encryptionKeys: busKeys });
  queue = new Queue(jobQueueName('uploads.cleanup'), { connection: { url: redisUrl }, prefix });
});

afterAll(async () => {
  await queue.close();
  await bus.close();
  await deletePrefix(prefix);
});

describe('scheduleRepeatingJob', () => {
  it('adds the job every interval, one schedule however many replicas ask', async () => {
    // Two replicas starting: the second call updates the same scheduler instead of adding one.
    await expect(scheduleRepeatingJob(bus, 'uploads.cleanup', 60_000)).resolves.toEqual({
      schedulerId: 'uploads.cleanup',
    });
    await scheduleRepeatingJob(bus, 'uploads.cleanup', 150);
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ key: 'uploads.cleanup', every: 150 });

    const runs: number[] = [];
    const processor = processJobs(bus, 'uploads.cleanup', async () => {
      runs.push(Date.now());
      return { expired_sessions: 0, deleted_uploads: 0, deleted_artifacts: 0 };
    });
    try {
      await pollUntil(() => runs.length >= 3, { timeoutMs: 5_000 });
      // The catalog's options travel with every scheduled job (attempts 1 for uploads.cleanup).
      const [latest] = await queue.getJobs(['completed'], 0, 0);
      expect(latest?.opts.attempts).toBe(1);
      // Sealed in Redis like every payload; the template's `{}` inside.
      expect(latest?.data).toEqual({ sealed: expect.any(String) });
      expect(openJobData(bus, 'uploads.cleanup', latest?.data)).toEqual({});
    } finally {
      await processor.close();
      await queue.removeJobScheduler('uploads.cleanup');
    }
  });

  it('rejects a bad interval or payload before touching Redis', async () => {
    await expect(scheduleRepeatingJob(bus, 'uploads.cleanup', 0)).rejects.toThrow(TypeError);
    await expect(scheduleRepeatingJob(bus, 'uploads.cleanup', 1.5)).rejects.toThrow(/positive integer/);
    await expect(scheduleRepeatingJob(bus, 'system.echo', 1_000)).rejects.toThrow(/invalid system.echo job/);
    expect(await queue.getJobSchedulers()).toHaveLength(0);
  });
});
