// Cost: ~15 s on 2 cores (47 s busy): 3 services up and down once; faults: a 6 s database blip, a Redis restart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureRedis, freePort, type RedisHandle } from '@svc/devstack';
import { type FetchResult, pollUntil, startTestStack, type TestStack } from '@svc/testkit';
import { Redis } from 'ioredis';
import { isSuccess } from './support/database-probes';

/**
 * Issue 15 item 7, "recovery in seconds": once a backing store is back, the platform serves again
 * by itself, in the same processes, without waiting out a backoff ladder; and item 1, a schedule
 * that Redis forgot (restarted empty) is saved again. Real processes, a private redis-server (so it
 * can be restarted empty without disturbing other suites) and a TCP proxy per service in front of
 * PostgreSQL (cut = connections refused). Measured figures are in the notes, not asserted.
 */

// ms: the fault of the report: a 6 s database blip.
const DATABASE_BLIP_MS = 6_000;
// ms: "it recovered by itself", generous for 2 busy cores; never a measure of speed.
const RECOVERY_BOUND_MS = 30_000;
const TEST_TIMEOUT_MS = 120_000;
const SERVICES = ['gateway', 'wallet', 'uploads'] as const;

describe('the platform recovers by itself when a backing store returns (integration)', () => {
  let dataDir: string;
  let redisUrl: string;
  let redisServer: RedisHandle;
  let stack: TestStack;
  let redis: Redis;
  let apiKey: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'recovery-redis-'));
    redisUrl = `redis://127.0.0.1:${await freePort()}`;
    redisServer = await ensureRedis({ redisUrl, dataDir });
    stack = await startTestStack({
      services: SERVICES,
      databaseProxyFor: SERVICES,
      env: { REDIS_URL: redisUrl },
      startTimeoutMs: 120_000,
    });
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    redis.on('error', () => {}); // the test's own reads; a restart fails one command at worst
    apiKey = (await stack.createApiKey({ scopes: ['billing:read'], balanceUsd: 1 })).apiKey;
  }, 180_000);

  afterAll(async () => {
    redis?.disconnect();
    await stack?.close();
    await redisServer?.stop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  /** The gateway's own database (the key check) and a service's over the bus (the balance). */
  async function probe(): Promise<FetchResult[]> {
    return Promise.all([
      stack.fetch('/api/account/whoami', { apiKey }),
      stack.fetch('/api/account/balance', { apiKey }),
    ]);
  }
  const served = async (): Promise<boolean> => (await probe()).every((answer) => isSuccess(answer.status));
  const untilServed = (what: string) =>
    pollUntil(served, { what, timeoutMs: RECOVERY_BOUND_MS, intervalMs: 200 });

  /** The uploads clean-up's scheduler, as BullMQ keeps it (the queue's schedulers set). */
  async function cleanupScheduled(): Promise<boolean> {
    const key = `${stack.prefix}:jobs.uploads.cleanup:repeat`;
    return (await redis.zscore(key, 'uploads.cleanup').catch(() => null)) !== null;
  }

  it(
    'serves again within seconds of a database blip',
    async () => {
      await untilServed('the platform to serve before the fault');
      const pids = SERVICES.map((name) => stack.pid(name));
      await Promise.all(SERVICES.map((name) => stack.databaseLink(name).cut()));
      try {
        await new Promise((resolve) => setTimeout(resolve, DATABASE_BLIP_MS));
        // Down means 503 with Retry-After, never 500.
        for (const answer of await probe()) {
          expect({ status: answer.status, retryAfter: answer.headers.get('retry-after') }).toEqual({
            status: 503,
            retryAfter: expect.stringMatching(/^\d+$/),
          });
        }
      } finally {
        await Promise.all(SERVICES.map((name) => stack.databaseLink(name).restore()));
      }
      await untilServed('the platform to serve again after the database came back');
      expect(SERVICES.map((name) => stack.pid(name))).toEqual(pids);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'saves the uploads clean-up schedule again, and serves again, after Redis restarts empty',
    async () => {
      await untilServed('the platform to serve before the fault');
      expect(await cleanupScheduled()).toBe(true);
      const pids = SERVICES.map((name) => stack.pid(name));
      await redisServer.stop();
      await rm(dataDir, { recursive: true, force: true });
      redisServer = await ensureRedis({ redisUrl, dataDir });
      await pollUntil(cleanupScheduled, {
        what: 'the uploads clean-up schedule to be saved again',
        timeoutMs: RECOVERY_BOUND_MS,
        intervalMs: 200,
      });
      await untilServed('the platform to serve again after Redis came back');
      expect(SERVICES.map((name) => stack.pid(name))).toEqual(pids);
    },
    TEST_TIMEOUT_MS,
  );
});
