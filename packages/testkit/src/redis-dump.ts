import type Redis from 'ioredis';
import { scanKeysWithPrefix } from './redis-cleanup';

/** One key as Redis holds it: its type and everything in it as text (binary bytes as UTF-8). */
export interface DumpedKey {
  key: string;
  type: string;
  /** The whole value: string; hash fields and values; list, set or zset members (with scores); stream entries. */
  text: string;
}

/** Streams are read in pages of this many entries (BullMQ's events streams hold up to 10,000). */
const STREAM_PAGE = 1_000;

async function streamText(redis: Redis, key: string): Promise<string> {
  const parts: string[] = [];
  let start = '-';
  for (;;) {
    const entries = await redis.xrange(key, start, '+', 'COUNT', STREAM_PAGE);
    for (const [id, fields] of entries) parts.push(id, ...fields);
    const last = entries.at(-1);
    if (last === undefined || entries.length < STREAM_PAGE) return parts.join('\n');
    start = `(${last[0]}`;
  }
}

async function valueText(redis: Redis, key: string, type: string): Promise<string> {
  switch (type) {
    case 'string':
      return ((await redis.getBuffer(key)) ?? Buffer.alloc(0)).toString('utf8');
    case 'hash':
      return Object.entries(await redis.hgetall(key))
        .flat()
        .join('\n');
    case 'list':
      return (await redis.lrange(key, 0, -1)).join('\n');
    case 'set':
      return (await redis.smembers(key)).join('\n');
    case 'zset':
      return (await redis.zrange(key, '0', '-1', 'WITHSCORES')).join('\n');
    case 'stream':
      return streamText(redis, key);
    default:
      // 'none' (expired meanwhile) or a module type: nothing we can read generically.
      return '';
  }
}

/**
 * Every key under `<prefix>:` with its whole content, whatever its type (strings, hashes, lists,
 * sets, sorted sets, streams): what a Redis dump of that deployment would show. For tests that
 * check what the platform leaves in Redis (issue 13: no personal data at rest).
 */
export async function dumpKeysWithPrefix(redisUrl: string, prefix: string): Promise<DumpedKey[]> {
  const dumped: DumpedKey[] = [];
  await scanKeysWithPrefix(redisUrl, prefix, async (redis, keys) => {
    for (const key of keys) {
      const type = await redis.type(key);
      dumped.push({ key, type, text: await valueText(redis, key, type) });
    }
  });
  return dumped.sort((a, b) => a.key.localeCompare(b.key));
}
