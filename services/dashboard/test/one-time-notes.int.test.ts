import { randomBytes } from 'node:crypto';
import { deleteKeysWithPrefix, scanKeysWithPrefix, testRedisUrl } from '@svc/testkit';
import { Redis } from 'ioredis';
import { NOTE_TTL_MS, oneTimeNotes, redisNoteStorage } from '../src/one-time-notes';

// Real Redis, as main.ts wires it: the note of a new API key (issue 23 item 4) is read once, by its
// own session only, and Redis never holds the key or the session token in a readable form.

const prefix = `notes${randomBytes(4).toString('hex')}`;
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(testRedisUrl(), { enableOfflineQueue: false, lazyConnect: true });
  await redis.connect();
});

afterAll(async () => {
  await redis.quit();
  await deleteKeysWithPrefix(testRedisUrl(), prefix);
});

async function stored(): Promise<Array<{ key: string; value: string | null; pttl: number }>> {
  const keys: string[] = [];
  await scanKeysWithPrefix(testRedisUrl(), prefix, async (_redis, found) => {
    keys.push(...found);
  });
  return Promise.all(
    keys.map(async (key) => ({ key, value: await redis.get(key), pttl: await redis.pttl(key) })),
  );
}

describe('one-time notes in Redis', () => {
  const session = randomBytes(32).toString('base64url');
  const secret = { api_key: `svc_live_${randomBytes(20).toString('hex')}`, name: 'ci' };

  it('is read once, by its session only, and Redis holds neither the secret nor the token', async () => {
    const notes = oneTimeNotes(redisNoteStorage({ redis, prefix }));
    const noteId = await notes.keep(session, secret);
    expect(noteId).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const [entry, ...others] = await stored();
    expect(others).toEqual([]);
    expect(entry?.key.startsWith(`${prefix}:dashboard:note:`)).toBe(true);
    expect(entry?.pttl).toBeGreaterThan(0);
    expect(entry?.pttl).toBeLessThanOrEqual(NOTE_TTL_MS);
    const text = `${entry?.key} ${entry?.value}`;
    for (const hidden of [secret.api_key, session, noteId, 'svc_live_']) expect(text).not.toContain(hidden);

    // Another session (another cookie) with the same id reads nothing, and leaves the note there.
    expect(await notes.take(randomBytes(32).toString('base64url'), noteId)).toBeNull();
    expect(await notes.take(session, noteId)).toEqual(secret);
    expect(await notes.take(session, noteId)).toBeNull();
    expect(await stored()).toEqual([]);
  });

  it('gives the note to one of two simultaneous reads (two gateways answering two reloads)', async () => {
    const first = oneTimeNotes(redisNoteStorage({ redis, prefix }));
    const second = oneTimeNotes(redisNoteStorage({ redis, prefix }));
    const noteId = await first.keep(session, secret);
    const reads = await Promise.all([first.take(session, noteId), second.take(session, noteId)]);
    expect(reads.filter((read) => read !== null)).toEqual([secret]);
  });

  it('answers null for a note altered in Redis, an expired one and an id that cannot be one', async () => {
    const notes = oneTimeNotes(redisNoteStorage({ redis, prefix }));
    const altered = await notes.keep(session, secret);
    const [entry] = await stored();
    if (entry?.value === null || entry === undefined) throw new Error('no note stored');
    const flipped = `${entry.value.slice(0, -2)}${entry.value.endsWith('A') ? 'BB' : 'AA'}`;
    await redis.set(entry.key, flipped, 'PX', 60_000);
    expect(await notes.take(session, altered)).toBeNull();

    const shortLived = oneTimeNotes(redisNoteStorage({ redis, prefix }), 20);
    const expiring = await shortLived.keep(session, secret);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await shortLived.take(session, expiring)).toBeNull();

    expect(await notes.take(session, '../../etc')).toBeNull();
  });
});
