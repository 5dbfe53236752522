import { SingleFlightCache } from '@svc/service-kit';
import { CatalogCache, type CatalogQuery, searchCacheKey } from './catalog-cache';

class NotFound extends Error {}
class Unavailable extends Error {}

/** A clock the test moves by hand (ms). */
function manualClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

/** A promise the test resolves or rejects when it wants. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Loaders that count calls and answer from small tables. */
function fakeRegistry() {
  const calls = { search: [] as CatalogQuery[], describe: [] as string[] };
  let version = 1;
  const loaders = {
    search: async (query: CatalogQuery) => {
      calls.search.push(query);
      return { version, q: query.q ?? null };
    },
    describe: async ({ slug }: { slug: string }) => {
      calls.describe.push(slug);
      if (slug === 'down') throw new Unavailable('registry did not answer within 3000 ms');
      if (slug !== 'crt') throw new NotFound(`unknown capability: ${slug}`);
      return { version, slug };
    },
  };
  return { calls, loaders, bump: () => (version += 1) };
}

function makeCache(registry: ReturnType<typeof fakeRegistry>, clock = manualClock(), extra = {}) {
  return new CatalogCache(registry.loaders, {
    ttlMs: 30_000,
    now: clock.now,
    isNotFound: (e) => e instanceof NotFound,
    ...extra,
  });
}

describe('CatalogCache', () => {
  it('serves a search from memory while fresh and reloads once the TTL has passed', async () => {
    const registry = fakeRegistry();
    const clock = manualClock();
    const cache = makeCache(registry, clock);
    await expect(cache.search({ q: 'crt', limit: 20 })).resolves.toEqual({ version: 1, q: 'crt' });
    registry.bump();
    clock.advance(29_999);
    await expect(cache.search({ q: 'crt', limit: 20 })).resolves.toEqual({ version: 1, q: 'crt' });
    expect(registry.calls.search).toHaveLength(1);
    clock.advance(1); // exactly ttlMs after the load: no longer fresh
    await expect(cache.search({ q: 'crt', limit: 20 })).resolves.toEqual({ version: 2, q: 'crt' });
    expect(registry.calls.search).toHaveLength(2);
  });

  it('normalises the query: case and whitespace of q share one entry, other params do not', async () => {
    const registry = fakeRegistry();
    const cache = makeCache(registry);
    await cache.search({ q: '  Certificate   Transparency ', limit: 20 });
    await cache.search({ q: 'certificate transparency', limit: 20 });
    expect(registry.calls.search).toEqual([{ q: 'certificate transparency', limit: 20 }]);
    await cache.search({ q: 'certificate transparency', limit: 21 });
    await cache.search({ q: 'certificate transparency', category: 'security', limit: 20 });
    await cache.search({ limit: 20 });
    await cache.search({ q: '   ', limit: 20 }); // blank q is "no q"
    expect(registry.calls.search).toHaveLength(4);
    expect(searchCacheKey({ q: 'A  b', limit: 5 })).toBe(searchCacheKey({ q: 'a b', limit: 5 }));
  });

  it('makes one RPC for concurrent misses of the same key (single flight)', async () => {
    const gate = deferred<{ n: number }>();
    let calls = 0;
    const cache = new CatalogCache(
      {
        search: () => {
          calls += 1;
          return gate.promise;
        },
        describe: async () => ({ n: 0 }),
      },
      { ttlMs: 1_000, isNotFound: () => false },
    );
    const answers = Array.from({ length: 25 }, () => cache.search({ q: 'dns', limit: 20 }));
    gate.resolve({ n: 7 });
    await expect(Promise.all(answers)).resolves.toEqual(Array.from({ length: 25 }, () => ({ n: 7 })));
    expect(calls).toBe(1);
  });

  it('shares a failure with every concurrent waiter and does not cache an outage', async () => {
    const registry = fakeRegistry();
    const cache = makeCache(registry);
    const both = [cache.describe('down'), cache.describe('down')];
    await expect(both[0]).rejects.toBeInstanceOf(Unavailable);
    await expect(both[1]).rejects.toBeInstanceOf(Unavailable);
    expect(registry.calls.describe).toEqual(['down']);
    await expect(cache.describe('down')).rejects.toBeInstanceOf(Unavailable);
    expect(registry.calls.describe).toEqual(['down', 'down']); // tried again, not remembered
    expect(cache.size).toBe(0);
  });

  it('remembers an unknown slug for negativeTtlMs only', async () => {
    const registry = fakeRegistry();
    const clock = manualClock();
    const cache = makeCache(registry, clock, { negativeTtlMs: 2_000 });
    await expect(cache.describe('nope')).rejects.toBeInstanceOf(NotFound);
    clock.advance(1_999);
    await expect(cache.describe('nope')).rejects.toBeInstanceOf(NotFound);
    expect(registry.calls.describe).toEqual(['nope']);
    clock.advance(1);
    await expect(cache.describe('nope')).rejects.toBeInstanceOf(NotFound);
    expect(registry.calls.describe).toEqual(['nope', 'nope']);
  });

  it('clear() (catalog.changed) drops every entry, and a load started before it is not stored', async () => {
    const registry = fakeRegistry();
    const cache = makeCache(registry);
    await cache.describe('crt');
    await cache.search({ q: 'crt', limit: 20 });
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
    registry.bump();
    await expect(cache.describe('crt')).resolves.toEqual({ version: 2, slug: 'crt' });

    // A reply that was in flight when the catalog changed must not be kept afterwards.
    const gate = deferred<string>();
    let loads = 0;
    const raw = new SingleFlightCache<string>({ ttlMs: 60_000, maxEntries: 10 });
    const first = raw.get('k', () => {
      loads += 1;
      return gate.promise;
    });
    raw.clear();
    gate.resolve('old');
    await expect(first).resolves.toBe('old'); // its own caller still gets an answer
    const reload = async () => {
      loads += 1;
      return `new${loads}`;
    };
    await expect(raw.get('k', reload)).resolves.toBe('new2'); // the late reply was not stored
  });

  it('keeps at most maxEntries, evicting the least recently used', async () => {
    const registry = fakeRegistry();
    const cache = makeCache(registry, manualClock(), { maxEntries: 3 });
    for (const q of ['a', 'b', 'c']) await cache.search({ q, limit: 20 });
    await cache.search({ q: 'a', limit: 20 }); // touch a: b is now the oldest
    await cache.search({ q: 'd', limit: 20 });
    expect(cache.size).toBe(3);
    const before = registry.calls.search.length;
    await cache.search({ q: 'a', limit: 20 });
    await cache.search({ q: 'c', limit: 20 });
    await cache.search({ q: 'd', limit: 20 });
    expect(registry.calls.search.length).toBe(before); // all three still cached
    await cache.search({ q: 'b', limit: 20 });
    expect(registry.calls.search.length).toBe(before + 1); // b was evicted
    expect(cache.size).toBe(3);
  });

  it('exposes max-age in whole seconds and rejects a negative TTL longer than the TTL', () => {
    const registry = fakeRegistry();
    expect(makeCache(registry, manualClock(), { ttlMs: 30_500 }).maxAgeSeconds).toBe(30);
    expect(() => makeCache(registry, manualClock(), { ttlMs: 1_000, negativeTtlMs: 2_000 })).toThrow(
      RangeError,
    );
  });
});
