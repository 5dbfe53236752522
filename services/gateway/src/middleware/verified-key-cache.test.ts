import type { AuthContext } from '../locals';
import { type KeyLookup, VerifiedKeyCache } from './verified-key-cache';

const IDENTITY: AuthContext = {
  clientId: 'c1',
  clientName: 'acme',
  keyId: 'k1',
  scopes: ['capabilities:read'],
  rateLimits: {},
};

/** A store whose answers the test holds and releases, counting lookups per presented key. */
function heldStore(valid: ReadonlySet<string>) {
  const waiting: Array<() => void> = [];
  const calls: string[] = [];
  let failure: Error | undefined;
  const store: KeyLookup = {
    lookup: (presented) =>
      new Promise((resolve, reject) => {
        calls.push(presented);
        waiting.push(() => {
          if (failure !== undefined) reject(failure);
          else
            resolve(
              valid.has(presented) ? { id: `row-${presented}`, lastUsedAt: null, identity: IDENTITY } : null,
            );
        });
      }),
  };
  return {
    store,
    calls,
    release: () => {
      for (const answer of waiting.splice(0)) answer();
    },
    failWith: (err: Error | undefined) => {
      failure = err;
    },
  };
}

describe('VerifiedKeyCache', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('reads the store once per key per ttlMs, shared by concurrent requests, and notes every use', async () => {
    const held = heldStore(new Set(['good']));
    const uses: string[] = [];
    const cache = new VerifiedKeyCache({
      store: held.store,
      noteUse: (id) => uses.push(id),
      ttlMs: 1_000,
      now,
    });
    const both = Promise.all([cache.verify('good'), cache.verify('good')]);
    held.release();
    expect(await both).toEqual([IDENTITY, IDENTITY]);
    clock += 999;
    expect(await cache.verify('good')).toEqual(IDENTITY); // from memory: no lookup
    expect(held.calls).toEqual(['good']);
    clock += 1; // the age bound: read again
    const again = cache.verify('good');
    held.release();
    expect(await again).toEqual(IDENTITY);
    expect(held.calls).toEqual(['good', 'good']);
    expect(uses).toEqual(['row-good', 'row-good', 'row-good', 'row-good']);
  });

  it('never keeps an invalid key: the next request asks the store again', async () => {
    const held = heldStore(new Set());
    const uses: string[] = [];
    const cache = new VerifiedKeyCache({
      store: held.store,
      noteUse: (id) => uses.push(id),
      ttlMs: 1_000,
      now,
    });
    const both = Promise.all([cache.verify('bad'), cache.verify('bad')]);
    held.release();
    expect(await both).toEqual([null, null]);
    const later = cache.verify('bad');
    held.release();
    expect(await later).toBeNull();
    expect(held.calls).toEqual(['bad', 'bad']);
    expect(cache.size).toBe(0);
    expect(uses).toEqual([]);
  });

  it('evictAll drops verified keys, and a lookup in flight at the time is not kept', async () => {
    const held = heldStore(new Set(['good', 'second']));
    const cache = new VerifiedKeyCache({ store: held.store, noteUse: () => {}, ttlMs: 60_000, now });
    const first = cache.verify('good');
    held.release();
    await first;
    const inFlight = cache.verify('second'); // read before the revocation, answered after it
    cache.evictAll();
    expect(cache.size).toBe(0);
    held.release();
    expect(await inFlight).toEqual(IDENTITY); // its own request still gets its answer
    const rereads = Promise.all([cache.verify('good'), cache.verify('second')]);
    held.release();
    await rereads;
    expect(held.calls).toEqual(['good', 'second', 'good', 'second']);
  });

  it('passes a store failure through (503 upstream) and keeps nothing of it', async () => {
    const held = heldStore(new Set(['good']));
    const cache = new VerifiedKeyCache({ store: held.store, noteUse: () => {}, ttlMs: 1_000, now });
    held.failWith(new Error('database down'));
    const failing = cache.verify('good');
    held.release();
    await expect(failing).rejects.toThrow('database down');
    held.failWith(undefined);
    const recovered = cache.verify('good');
    held.release();
    expect(await recovered).toEqual(IDENTITY);
  });

  it('stops serving a cached key at its expiry, though the entry is younger than ttlMs', async () => {
    const calls: string[] = [];
    const expiresAt = new Date(clock + 500);
    const store: KeyLookup = {
      lookup: async (presented) => {
        calls.push(presented);
        return { id: 'row-expiring', lastUsedAt: null, expiresAt, identity: IDENTITY };
      },
    };
    const uses: string[] = [];
    const cache = new VerifiedKeyCache({ store, noteUse: (id) => uses.push(id), ttlMs: 60_000, now });
    expect(await cache.verify('expiring')).toEqual(IDENTITY);
    clock += 499;
    expect(await cache.verify('expiring')).toEqual(IDENTITY); // still before the expiry, from memory
    clock += 1; // the expiry itself: refused, and the refusal is not a use
    expect(await cache.verify('expiring')).toBeNull();
    clock += 10_000;
    expect(await cache.verify('expiring')).toBeNull();
    expect(calls).toEqual(['expiring']);
    expect(uses).toEqual(['row-expiring', 'row-expiring']);
  });

  it('bounds its size: the least recently used identity goes first', async () => {
    const held = heldStore(new Set(['a', 'b', 'c']));
    const cache = new VerifiedKeyCache({
      store: held.store,
      noteUse: () => {},
      ttlMs: 60_000,
      maxEntries: 2,
      now,
    });
    for (const key of ['a', 'b', 'a', 'c']) {
      const answer = cache.verify(key);
      held.release();
      await answer;
    }
    expect(cache.size).toBe(2);
    const b = cache.verify('b'); // evicted: read again
    held.release();
    await b;
    expect(held.calls).toEqual(['a', 'b', 'c', 'b']);
  });
});
