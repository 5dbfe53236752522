import { createLogger } from '@svc/log';
import { createTestBus, type TestBus } from '@svc/testkit';
import type { HostnameSet } from '../../../packages/capabilities/src/crt/crt-result';
import {
  HostnameSource,
  type HostnameSourceOptions,
} from '../../../packages/capabilities/src/crt/hostname-source';
import { ProvidersUnavailableError } from '../../../packages/capabilities/src/crt/providers';
import { capabilityCacheKey, createCapabilityCache } from '../src/adapters/capability-cache';

// crt's per-apex cache and single flight against a real Redis (own key prefix, cleaned up), through
// the worker's cache port (adapters/capability-cache.ts).

const crtCacheKey = (prefix: string, apex: string) => capabilityCacheKey(prefix, 'crt', apex);

const never = new AbortController().signal;
const logger = createLogger({ service: 'hostname-source-test', level: 'silent' });
let testBus: TestBus;

beforeAll(async () => {
  testBus = createTestBus('crtc');
  // The producer connection has no offline queue: wait until it is up before the first GET.
  await testBus.bus.redis.ping().catch(() => undefined);
  await new Promise<void>((resolve) => {
    if (testBus.bus.redis.status === 'ready') resolve();
    else testBus.bus.redis.once('ready', () => resolve());
  });
});
afterAll(async () => {
  await testBus.close();
});

const setOf = (provider: string, names: string[]): HostnameSet => ({
  provider,
  entries: names.map((name, i) => [name, i === 0 ? null : Date.UTC(2024, 0, i)] as const),
  truncated: false,
});

/** A fetch the test resolves by hand, counting calls. */
function manualFetch() {
  const calls: string[] = [];
  let release: (set: HostnameSet) => void = () => undefined;
  let fail: (err: Error) => void = () => undefined;
  const fetch = (apex: string) => {
    calls.push(apex);
    return new Promise<HostnameSet>((resolve, reject) => {
      release = resolve;
      fail = reject;
    });
  };
  return { calls, fetch, release: (set: HostnameSet) => release(set), fail: (err: Error) => fail(err) };
}

function source(fetch: HostnameSourceOptions['fetch'], overrides: Partial<HostnameSourceOptions> = {}) {
  return new HostnameSource({
    cache: createCapabilityCache(testBus.bus, 'crt'),
    ttlMs: 60_000,
    maxBytes: 1024 * 1024,
    fetch,
    logger,
    ...overrides,
  });
}

describe('HostnameSource', () => {
  it('shares one fetch between concurrent misses, then serves hits from Redis', async () => {
    const manual = manualFetch();
    const cache = source(manual.fetch);
    const pending = [1, 2, 3].map(() => cache.lookup('flight.example', never));
    // Let the three lookups reach the flight (each first awaits a Redis GET).
    while (manual.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    manual.release(setOf('crt.sh', ['a.flight.example', 'b.flight.example']));
    const results = await Promise.all(pending);
    expect(manual.calls).toEqual(['flight.example']);
    expect(results.map((r) => r.cache)).toEqual(['miss', 'miss', 'miss']);

    const hit = await cache.lookup('flight.example', never);
    expect(hit.cache).toBe('hit');
    expect(hit.providerMs).toBe(0);
    expect(hit.set).toEqual(setOf('crt.sh', ['a.flight.example', 'b.flight.example']));
    expect(manual.calls).toHaveLength(1);
    const ttl = await testBus.bus.redis.pttl(crtCacheKey(testBus.prefix, 'flight.example'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('never caches a failure: the next lookup fetches again', async () => {
    let calls = 0;
    const cache = source(async () => {
      calls += 1;
      if (calls === 1) throw new ProvidersUnavailableError([{ provider: 'crt.sh', reason: 'HTTP 502' }]);
      return setOf('certspotter', ['x.down.example']);
    });
    await expect(cache.lookup('down.example', never)).rejects.toThrow(ProvidersUnavailableError);
    expect(await testBus.bus.redis.exists(crtCacheKey(testBus.prefix, 'down.example'))).toBe(0);
    const second = await cache.lookup('down.example', never);
    expect(second.set.provider).toBe('certspotter');
    expect(calls).toBe(2);
  });

  it('with TTL 0 neither reads nor writes the cache (cache off)', async () => {
    let calls = 0;
    const cache = source(
      async () => {
        calls += 1;
        return setOf('crt.sh', ['off.example']);
      },
      { ttlMs: 0 },
    );
    expect((await cache.lookup('off.example', never)).cache).toBe('off');
    expect((await cache.lookup('off.example', never)).cache).toBe('off');
    expect(calls).toBe(2);
    expect(await testBus.bus.redis.exists(crtCacheKey(testBus.prefix, 'off.example'))).toBe(0);
  });

  it('does not write an entry larger than maxBytes (compressed)', async () => {
    const names = Array.from(
      { length: 5_000 },
      (_, i) => `${i.toString(36)}x${(i * 7919).toString(36)}.big.example`,
    );
    const cache = source(async () => setOf('crt.sh', names), { maxBytes: 1_024 });
    expect((await cache.lookup('big.example', never)).set.entries).toHaveLength(5_000);
    expect(await testBus.bus.redis.exists(crtCacheKey(testBus.prefix, 'big.example'))).toBe(0);
  });

  it('treats an unreadable entry as a miss and replaces it', async () => {
    const key = crtCacheKey(testBus.prefix, 'corrupt.example');
    await testBus.bus.redis.set(key, 'not gzip at all', 'PX', 60_000);
    let calls = 0;
    const cache = source(async () => {
      calls += 1;
      return setOf('crt.sh', ['corrupt.example']);
    });
    expect((await cache.lookup('corrupt.example', never)).cache).toBe('miss');
    expect((await cache.lookup('corrupt.example', never)).cache).toBe('hit');
    expect(calls).toBe(1);
  });
});
