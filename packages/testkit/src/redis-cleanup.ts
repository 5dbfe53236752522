import Redis from 'ioredis';

// Keys per SCAN step: large enough to sweep a test's few thousand keys in a handful of round trips.
const SCAN_COUNT = 1_000;

/**
 * Runs `onKeys` on every batch of keys under `<prefix>:`, over a short-lived connection. A longer
 * prefix (`<BUS_PREFIX>:workers:node`) visits one family of keys only.
 */
export async function scanKeysWithPrefix(
  redisUrl: string,
  prefix: string,
  onKeys: (redis: Redis, keys: string[]) => Promise<void>,
): Promise<void> {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    // ioredis arms a 2 s timer (not unref'd) on disconnect() of a failed socket: keep it short.
    disconnectTimeout: 100,
  });
  redis.on('error', () => undefined); // failures surface through the rejected commands below
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', SCAN_COUNT);
      if (keys.length > 0) await onKeys(redis, keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}

/**
 * Deletes every key of one bus prefix (`<prefix>:*`: BullMQ queues, heartbeats, anything else the
 * services namespaced). SCAN rather than KEYS and UNLINK rather than DEL: the Redis may be shared
 * with other suites and a developer's `pnpm start`, so never block it. Returns how many keys went.
 */
export async function deleteKeysWithPrefix(redisUrl: string, prefix: string): Promise<number> {
  let deleted = 0;
  await scanKeysWithPrefix(redisUrl, prefix, async (redis, keys) => {
    deleted += await redis.unlink(...keys);
  });
  return deleted;
}

/** How many keys of a prefix exist (tests use it to prove the cleanup). */
export async function countKeysWithPrefix(redisUrl: string, prefix: string): Promise<number> {
  let count = 0;
  await scanKeysWithPrefix(redisUrl, prefix, async (_redis, keys) => {
    count += keys.length;
  });
  return count;
}
