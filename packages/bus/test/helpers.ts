import { randomBytes } from 'node:crypto';
import { memoryLogger } from '@svc/log';
import { createRedis } from '../src';

/** The bus encryption key of these suites (every bus here seals with it). */
export const busKeys: readonly Uint8Array[] = [randomBytes(32)];

/** Redis of the integration run (jest/integration-setup.ts sets TEST_REDIS_URL). */
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other suite (or earlier run) uses. */
export function uniquePrefix(suite: string): string {
  return `test-bus-${suite}-${randomBytes(4).toString('hex')}`;
}

/** Deletes every key under `prefix` (SCAN, not KEYS: the Redis may be shared). */
export async function deletePrefix(prefix: string): Promise<void> {
  const redis = createRedis(redisUrl, {
    role: 'worker',
    name: `${prefix}:cleanup`,
    logger: memoryLogger().logger,
  });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A redis:// URL on a loopback port nothing listens on (bound then released). */
export async function closedPortUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `redis://127.0.0.1:${address.port}`;
}
