import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryLogger } from '@svc/log';
import { Redis } from 'ioredis';
import { freePort } from '../../devstack/src/net';
import { ensureRedis, type RedisHandle } from '../../devstack/src/redis';
import { pollUntil } from '../../testkit/src/poll';
import { type Bus, createBus, jobQueueName, type KeptSchedule, keepJobScheduled } from '../src';
import { type TestCatalog, testCatalog } from './catalog';
import { busKeys, uniquePrefix } from './helpers';

/**
 * Issue 15: a BullMQ schedule lives only in Redis, so a Redis restarted without its data forgets
 * it. `keepJobScheduled` saves it again, on the reconnection (Redis restarted) or at its next
 * periodic check (Redis emptied under a live connection). A private redis-server of this suite's
 * own: restarting the shared one would disturb every other suite.
 */

// ms: "it came back by itself", generous for 2 busy cores; never a measure of speed.
const RECOVERY_BOUND_MS = 20_000;
const { logger, lines } = memoryLogger();

describe('keepJobScheduled (integration, private redis-server)', () => {
  const prefix = uniquePrefix('schedules');
  let dataDir: string;
  let redisUrl: string;
  let server: RedisHandle;
  let bus: Bus<TestCatalog>;
  let probe: Redis;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bus-schedules-redis-'));
    redisUrl = `redis://127.0.0.1:${await freePort()}`;
    server = await ensureRedis({ redisUrl, dataDir });
    bus = createBus({ catalog: testCatalog, redisUrl, prefix, logger, encryptionKeys: busKeys });
    probe = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    probe.on('error', () => {}); // the test's own reads; a restart fails one command at worst
  });

  afterAll(async () => {
    probe?.disconnect();
    await bus?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The scheduler's entry in the queue's schedulers set (what BullMQ reads to add each job). */
  async function scheduled(): Promise<boolean> {
    try {
      return (
        (await probe.zscore(`${prefix}:${jobQueueName('uploads.cleanup')}:repeat`, 'uploads.cleanup')) !==
        null
      );
    } catch {
      return false; // Redis restarting
    }
  }

  /** Stops redis-server, deletes its AOF, starts an empty one on the same port. */
  async function restartEmpty(): Promise<void> {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
    server = await ensureRedis({ redisUrl, dataDir });
  }

  it('saves the schedule again when Redis restarts empty', async () => {
    // A check interval far beyond the bound: only the reconnection can bring it back in time.
    const kept: KeptSchedule = await keepJobScheduled(bus, 'uploads.cleanup', 60_000, {
      checkEveryMs: 600_000,
    });
    try {
      expect(await scheduled()).toBe(true);
      await restartEmpty();
      await pollUntil(scheduled, {
        what: 'the schedule to be saved again',
        timeoutMs: RECOVERY_BOUND_MS,
        intervalMs: 100,
      });
      expect(lines().map((line) => line.msg)).toContain(
        'job schedule was missing from Redis (emptied?): saved again',
      );
    } finally {
      await kept.close();
    }
  }, 60_000);

  it('saves it again when Redis is emptied under a live connection (periodic check)', async () => {
    const kept = await keepJobScheduled(bus, 'uploads.cleanup', 60_000, { checkEveryMs: 200 });
    try {
      expect(await scheduled()).toBe(true);
      await probe.flushall();
      expect(await scheduled()).toBe(false);
      await pollUntil(scheduled, { what: 'the schedule to be saved again', timeoutMs: RECOVERY_BOUND_MS });
    } finally {
      await kept.close();
    }
    // Closed: no longer kept (closing leaves Redis as it is, and saves nothing more).
    await probe.flushall();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await scheduled()).toBe(false);
  }, 60_000);

  it('starts while Redis is down and saves the schedule once it answers', async () => {
    await server.stop();
    const kept = await keepJobScheduled(bus, 'uploads.cleanup', 60_000, { checkEveryMs: 600_000 });
    try {
      expect(lines().map((line) => line.msg)).toContain('job schedule not saved; retrying');
      await rm(dataDir, { recursive: true, force: true });
      server = await ensureRedis({ redisUrl, dataDir });
      await pollUntil(scheduled, {
        what: 'the schedule to be saved',
        timeoutMs: RECOVERY_BOUND_MS,
        intervalMs: 100,
      });
    } finally {
      await kept.close();
    }
  }, 60_000);
});
