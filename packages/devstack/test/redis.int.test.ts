// ensureRedis: use a Redis that answers; spawn redis-server for a silent loopback URL; explain
// what to do when that is impossible.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureRedis, freePort, pingRedis, type RedisHandle } from '../src/index';

const existingUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('ensureRedis', () => {
  let dataDir: string;
  const handles: RedisHandle[] = [];

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'devstack-redis-'));
  });
  afterAll(async () => {
    for (const handle of handles) await handle.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('uses a Redis that already answers and leaves it running on stop()', async () => {
    const handle = await ensureRedis({ redisUrl: existingUrl, dataDir });
    expect(handle).toMatchObject({ url: existingUrl, spawned: false });
    await handle.stop();
    expect(await pingRedis(existingUrl)).toBe(true);
  });

  it('spawns redis-server for a loopback URL nobody answers, with AOF in dataDir; stop() kills it', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    expect(await pingRedis(url)).toBe(false);
    const handle = await ensureRedis({ redisUrl: url, dataDir });
    handles.push(handle);
    expect(handle).toMatchObject({ url, spawned: true });
    expect(await pingRedis(url)).toBe(true);
    expect(fs.readdirSync(dataDir)).toContain('appendonlydir');

    await handle.stop();
    expect(await pingRedis(url)).toBe(false);
    await handle.stop(); // idempotent
  });

  it('says how to get Redis when redis-server is not on PATH', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const savedPath = process.env.PATH;
    process.env.PATH = os.tmpdir();
    try {
      await expect(ensureRedis({ redisUrl: url, dataDir })).rejects.toThrow(
        /redis-server is not on PATH.*apt-get install redis-server.*set REDIS_URL/,
      );
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it('does not spawn anything for a non-loopback URL', async () => {
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never routed, so nothing answers there.
    await expect(ensureRedis({ redisUrl: 'redis://:pw@192.0.2.1:6379', dataDir })).rejects.toThrow(
      'Redis at redis://:***@192.0.2.1:6379 (REDIS_URL) does not answer',
    );
  });
});
