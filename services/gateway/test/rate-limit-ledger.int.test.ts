import { randomBytes } from 'node:crypto';
import { createRedis } from '@svc/bus';
import { freePort } from '@svc/devstack';
import { memoryLogger } from '@svc/log';
import { deleteKeysWithPrefix, testRedisUrl } from '@svc/testkit';
import type { Redis } from 'ioredis';
import type { BudgetPolicy } from '../src/rate-limit/budgets';
import { RedisBudgetLedger } from '../src/rate-limit/limiter';

// The limiter's store against a real Redis (shared counters, partial grants of a batch, no Redis
// traffic once a key is spent) and against none at all (fail-open to a per-process count).

const policy: BudgetPolicy = { budget: 'quotes', quota: 3, windowSeconds: 600, scope: 'key' };
const prefix = `t${randomBytes(6).toString('hex')}`;
const clients: Redis[] = [];

function redisAt(url: string): Redis {
  const client = createRedis(url, {
    role: 'producer',
    name: `${prefix}:rate-limit-test`,
    logger: memoryLogger().logger,
  });
  clients.push(client);
  return client;
}

afterAll(async () => {
  for (const client of clients) client.disconnect();
  await deleteKeysWithPrefix(testRedisUrl(), prefix);
});

it('two ledgers (two gateway processes) share one counter; a batch gets the points that still fit', async () => {
  const log = memoryLogger();
  const first = new RedisBudgetLedger({ redis: redisAt(testRedisUrl()), prefix, logger: log.logger });
  const second = new RedisBudgetLedger({ redis: redisAt(testRedisUrl()), prefix, logger: log.logger });
  const subject = { kind: 'key', keyId: 'shared-key' } as const;

  const one = await first.consume(policy, subject, 1);
  expect(one).toMatchObject({ granted: 1, state: { remaining: 2 } });
  // A batch of 5 with 2 left: 2 go ahead, and the budget is spent.
  const batch = await second.consume(policy, subject, 5);
  expect(batch).toMatchObject({ granted: 2, state: { remaining: 0 } });
  expect(batch.state.resetMs).toBeGreaterThan(0);
  expect(batch.state.resetMs).toBeLessThanOrEqual(600_000);
  // Spent: refused from memory in the process that saw it, from Redis in the other.
  expect(await second.consume(policy, subject, 1)).toMatchObject({ granted: 0 });
  expect(await first.consume(policy, subject, 1)).toMatchObject({ granted: 0 });
  // Another key is untouched.
  expect(await first.consume(policy, { kind: 'key', keyId: 'other-key' }, 1)).toMatchObject({ granted: 1 });
  expect(log.text()).not.toContain('fail-open');
});

it('Redis down: answers at once from a per-process count (fail-open, still limited) and warns once', async () => {
  const log = memoryLogger();
  const closedPort = await freePort(); // nothing listens there
  const ledger = new RedisBudgetLedger({
    redis: redisAt(`redis://127.0.0.1:${closedPort}`),
    prefix,
    logger: log.logger,
  });
  const subject = { kind: 'address', ip: '203.0.113.9' } as const;
  const addressPolicy: BudgetPolicy = { ...policy, scope: 'address' };

  const granted = [];
  for (let i = 0; i < 5; i += 1) granted.push((await ledger.consume(addressPolicy, subject, 1)).granted);
  expect(granted).toEqual([1, 1, 1, 0, 0]);
  const warnings = log.lines().filter((line) => String(line.msg).includes('fail-open'));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatchObject({ level: 40, budget: 'quotes' });
});
