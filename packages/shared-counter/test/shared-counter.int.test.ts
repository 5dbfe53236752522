import { randomBytes } from 'node:crypto';
import { createRedis } from '@svc/bus';
import { freePort } from '@svc/devstack';
import { memoryLogger } from '@svc/log';
import { deleteKeysWithPrefix, testRedisUrl } from '@svc/testkit';
import type { Redis } from 'ioredis';
import { fallbackWarning, SharedCounter } from '../src';

// The one counter of the gateway's budgets and the dashboard's sign-in throttle, against a real
// Redis (one count across processes; exact or blocking in memory once spent) and against none.

const prefix = `t${randomBytes(6).toString('hex')}`;
const clients: Redis[] = [];

function redisAt(url: string): Redis {
  const client = createRedis(url, {
    role: 'producer',
    name: `${prefix}:counter-test`,
    logger: memoryLogger().logger,
  });
  clients.push(client);
  return client;
}

afterAll(async () => {
  for (const client of clients) client.disconnect();
  await deleteKeysWithPrefix(testRedisUrl(), prefix);
});

const window = { points: 2, windowSeconds: 600 };

it('two processes share one count; over it, the answer says so and when the window ends', async () => {
  const keyPrefix = `${prefix}:shared`;
  const first = new SharedCounter({ redis: redisAt(testRedisUrl()), keyPrefix, ...window });
  const second = new SharedCounter({ redis: redisAt(testRedisUrl()), keyPrefix, ...window });
  expect(await first.consume('k')).toMatchObject({ over: false, consumed: 1, remaining: 1 });
  expect(await second.consume('k')).toMatchObject({ over: false, consumed: 2, remaining: 0 });
  const over = await first.consume('k');
  expect(over).toMatchObject({ over: true, consumed: 3, remaining: 0 });
  expect(over.resetMs).toBeGreaterThan(0);
  expect(over.resetMs).toBeLessThanOrEqual(600_000);
  expect(await second.consume('other')).toMatchObject({ over: false, consumed: 1 });
});

it('exact: a rewarded or deleted count applies at once, even after the key was spent', async () => {
  const keyPrefix = `${prefix}:exact`;
  const counter = new SharedCounter({ redis: redisAt(testRedisUrl()), keyPrefix, ...window, exact: true });
  await counter.consume('k', 2);
  expect((await counter.consume('k')).over).toBe(true);
  // The store holds 3 (the refused point too): give back 2, and the next one fits.
  await counter.reward('k', 2);
  expect(await counter.consume('k')).toMatchObject({ over: false, consumed: 2 });
  await counter.delete('k');
  expect(await counter.consume('k')).toMatchObject({ over: false, consumed: 1 });
});

it('not exact: a spent key is refused from memory until its window ends (no Redis round trip)', async () => {
  const keyPrefix = `${prefix}:blocking`;
  const counter = new SharedCounter({ redis: redisAt(testRedisUrl()), keyPrefix, ...window });
  await counter.consume('k', 2);
  expect((await counter.consume('k')).over).toBe(true);
  await counter.reward('k', 2);
  // Refused from this process's memory: nothing fitted, nothing asked of the store.
  expect(await counter.consume('k')).toMatchObject({ over: true, consumed: 0 });
});

it('Redis down: counts in this process (still limited) and tells onFallback each time', async () => {
  const closedPort = await freePort(); // nothing listens there
  const log = memoryLogger();
  const warn = fallbackWarning({ logger: log.logger, message: 'counting in memory' });
  const fallbacks: unknown[] = [];
  const counter = new SharedCounter({
    redis: redisAt(`redis://127.0.0.1:${closedPort}`),
    keyPrefix: `${prefix}:down`,
    ...window,
    exact: true,
    onFallback: (err) => {
      fallbacks.push(err);
      warn(err, { counter: 'test' });
    },
  });
  const started = Date.now();
  expect((await counter.consume('k')).over).toBe(false);
  expect((await counter.consume('k')).over).toBe(false);
  expect((await counter.consume('k')).over).toBe(true);
  await counter.delete('k');
  expect((await counter.consume('k')).over).toBe(false);
  // Never held for the store: each count waited at most for the first connection attempt.
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(fallbacks.length).toBe(5);
  // One warning for the burst, with the caller's fields.
  const lines = log.lines().filter((line) => line.msg === 'counting in memory');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ counter: 'test', requests: 1 });
});

it('without Redis: this process only', async () => {
  const counter = new SharedCounter({ keyPrefix: 'memory', ...window, exact: true });
  await counter.consume('k', 2);
  expect((await counter.consume('k')).over).toBe(true);
  await counter.reward('k', 2);
  expect((await counter.consume('k')).over).toBe(false);
});
