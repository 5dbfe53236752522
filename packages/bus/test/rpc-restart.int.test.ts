import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppError } from '@svc/errors';
import { memoryLogger } from '@svc/log';
import { freePort } from '../../devstack/src/net';
import { ensureRedis, type RedisHandle } from '../../devstack/src/redis';
import { pollUntil } from '../../testkit/src/poll';
import { type Bus, createBus, serveRpc, serviceClient } from '../src';
import { type TestCatalog, testCatalog } from './catalog';
import { busKeys, sleep, uniquePrefix } from './helpers';

// A Redis restarted without its data, under steady traffic, on a private redis-server: calls caught
// by the outage fail with 503 (never hang, never another status), and the callers and responder
// serve again by themselves once Redis is back, without restarting anything.

const TIMEOUT_MS = 1_000;
/** ms: a call settles within its timeout; this much more is tolerated before calling it hung. */
const HANG_MARGIN_MS = 3_000;
const CONCURRENT_CALLERS = 8;

const prefix = uniquePrefix('rpc-restart');
const { logger } = memoryLogger();
let dataDir: string;
let url: string;
let redis: RedisHandle | undefined;
const buses: Bus<TestCatalog>[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'rpc-restart-'));
  url = `redis://127.0.0.1:${await freePort()}`;
  redis = await ensureRedis({ redisUrl: url, dataDir });
  expect(redis.spawned).toBe(true);
});

afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
  await redis?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Outcome {
  startedAt: number;
  ms: number;
  /** 200 for an answer, else the error's status (500 for anything that is not an AppError). */
  status: number;
  error?: string;
}

it('fails calls with 503 while Redis restarts empty, then serves again by itself', async () => {
  const newBus = () => {
    const bus = createBus({ catalog: testCatalog, redisUrl: url, prefix, logger, encryptionKeys: busKeys });
    buses.push(bus);
    return bus;
  };
  const server = serveRpc(newBus(), 'registry', {
    search: async (query) => ({
      ok: true as const,
      capabilities: [],
      count: 0,
      query: { q: query.q ?? null, category: null, limit: query.limit },
    }),
    describe: async ({ slug }) => ({ slug }),
  });
  await server.waitUntilReady();
  const registry = serviceClient(newBus(), 'registry', { timeoutMs: TIMEOUT_MS });

  const outcomes: Outcome[] = [];
  let running = true;
  const caller = async (n: number) => {
    for (let i = 0; running; i += 1) {
      const startedAt = Date.now();
      const q = `caller ${n} call ${i}`;
      const outcome = await registry.search({ q }).then(
        (answer): Outcome => ({
          startedAt,
          ms: Date.now() - startedAt,
          status: answer.query.q === q ? 200 : 500,
        }),
        (err: unknown): Outcome => ({
          startedAt,
          ms: Date.now() - startedAt,
          status: err instanceof AppError ? err.status : 500,
          error: err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err),
        }),
      );
      outcomes.push(outcome);
      // A failing call returns at once while Redis is down: do not spin.
      if (outcome.status !== 200) await sleep(20);
    }
  };
  const callers = Array.from({ length: CONCURRENT_CALLERS }, (_, n) => caller(n));
  const served = (since: number) => outcomes.filter((o) => o.status === 200 && o.startedAt >= since).length;

  try {
    await pollUntil(() => served(0) >= 100, { what: '100 calls served before the restart' });

    // Restart empty: stop Redis, drop its data directory (the AOF), start a new one on the same port.
    await redis?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    const downAt = Date.now();
    await sleep(500);
    redis = await ensureRedis({ redisUrl: url, dataDir });
    const backAt = Date.now();

    await pollUntil(() => served(backAt) >= 100, {
      what: '100 calls served after the restart',
      timeoutMs: 20_000,
      detail: () => JSON.stringify(outcomes.slice(-5)),
    });
    running = false;
    await Promise.all(callers);

    const failures = outcomes.filter((o) => o.status !== 200);
    // Not vacuous: the outage was seen by the callers.
    expect(failures.filter((o) => o.startedAt >= downAt - TIMEOUT_MS).length).toBeGreaterThan(0);
    // Every failure is a 503 (never a 500), and no call hung past its deadline.
    expect(failures.filter((o) => o.status !== 503)).toEqual([]);
    expect(outcomes.filter((o) => o.ms > TIMEOUT_MS + HANG_MARGIN_MS)).toEqual([]);
    for (const failure of failures) {
      expect(failure.error).toMatch(
        /^ServiceUnavailableError: registry service (is unavailable|did not answer within 1000 ms)$/,
      );
    }
  } finally {
    running = false;
    await Promise.all(callers);
  }
}, 60_000);
