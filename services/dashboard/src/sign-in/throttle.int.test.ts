import { randomBytes } from 'node:crypto';
import { deleteKeysWithPrefix, scanKeysWithPrefix, testRedisUrl } from '@svc/testkit';
import { Redis } from 'ioredis';
import { signIn } from './sign-in';
import { redisSignInThrottle } from './throttle';

// Real Redis: the counters are shared by every dashboard process and hold no email or address.

const prefix = `signin${randomBytes(4).toString('hex')}`;
const LIMITS = { accountFailures: 3, addressFailures: 5, windowSeconds: 900 };
let redis: Redis;
const extraClients: Redis[] = [];

beforeAll(async () => {
  // Like the bus's producer connection: no offline queue, so wait until it is ready.
  redis = new Redis(testRedisUrl(), {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
  });
  await redis.connect();
});

afterAll(async () => {
  for (const client of extraClients) if (client.status !== 'end') client.disconnect();
  await redis.quit();
  await deleteKeysWithPrefix(testRedisUrl(), prefix);
});

const refuseAll = { verifyPassword: async () => null };

describe('redisSignInThrottle', () => {
  it('two gateway processes share one count, and the keys name neither the email nor the address', async () => {
    const email = `ada.${prefix}@example.com`;
    const ip = '198.51.100.23';
    const first = redisSignInThrottle({ redis, prefix, limits: LIMITS });
    const second = redisSignInThrottle({ redis, prefix, limits: LIMITS });
    for (const throttle of [first, second, first]) {
      expect((await signIn({ accounts: refuseAll, throttle }, { email, password: 'x', ip })).kind).toBe(
        'refused',
      );
    }
    const outcome = await signIn({ accounts: refuseAll, throttle: second }, { email, password: 'x', ip });
    expect(outcome.kind).toBe('throttled');
    if (outcome.kind === 'throttled') expect(outcome.retryAfterSeconds).toBeLessThanOrEqual(900);

    const keys: string[] = [];
    await scanKeysWithPrefix(testRedisUrl(), prefix, async (_redis, found) => {
      keys.push(...found);
    });
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys.every((key) => key.startsWith(`${prefix}:signin:`))).toBe(true);
    const text = keys.join('\n');
    expect(text).not.toContain('ada');
    expect(text).not.toContain('example.com');
    expect(text).not.toContain(ip);
  });

  it('counts every attempt in Redis, refused ones too: exact, never blocked in memory like the API budgets', async () => {
    const own = `${prefix}x`;
    const throttle = redisSignInThrottle({ redis, prefix: own, limits: LIMITS });
    const attempt = () =>
      signIn(
        { accounts: refuseAll, throttle },
        { email: 'exact@example.com', password: 'x', ip: '192.0.2.7' },
      );
    for (let i = 0; i < LIMITS.accountFailures; i += 1) expect((await attempt()).kind).toBe('refused');
    expect((await attempt()).kind).toBe('throttled');
    expect((await attempt()).kind).toBe('throttled');
    const counts: Record<string, string | null> = {};
    await scanKeysWithPrefix(testRedisUrl(), `${own}:signin:account`, async (client, found) => {
      for (const key of found) counts[key] = await client.get(key);
    });
    // Three failures and two refusals: all five reached the shared count.
    expect(Object.values(counts)).toEqual([String(LIMITS.accountFailures + 2)]);
  });

  it('with Redis unreachable, still throttles, counting in this process', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      enableOfflineQueue: false,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    extraClients.push(down);
    await down.connect().catch(() => undefined);
    const throttle = redisSignInThrottle({ redis: down, prefix, limits: LIMITS });
    const attempt = () =>
      signIn(
        { accounts: refuseAll, throttle },
        { email: 'grace@example.com', password: 'x', ip: '203.0.113.9' },
      );
    for (let i = 0; i < LIMITS.accountFailures; i += 1) expect((await attempt()).kind).toBe('refused');
    expect((await attempt()).kind).toBe('throttled');
  });
});
