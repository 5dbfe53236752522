import { SingleFlightCache } from './single-flight-cache';

/** A load whose answer the test gives when it wants (to hold it in flight), counting calls. */
function heldLoads<V>() {
  const pending: Array<{ resolve: (value: V) => void; reject: (error: unknown) => void }> = [];
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    load: () =>
      new Promise<V>((resolve, reject) => {
        calls += 1;
        pending.push({ resolve, reject });
      }),
    resolveAll(value: V) {
      for (const call of pending.splice(0)) call.resolve(value);
    },
    rejectAll(error: unknown) {
      for (const call of pending.splice(0)) call.reject(error);
    },
  };
}

describe('SingleFlightCache', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('shares one load between concurrent misses and serves it fresh for ttlMs (ms)', async () => {
    const cache = new SingleFlightCache<string>({ ttlMs: 5_000, maxEntries: 10, now });
    const loads = heldLoads<string>();
    const both = Promise.all([cache.get('k', loads.load), cache.get('k', loads.load)]);
    loads.resolveAll('v1');
    expect(await both).toEqual(['v1', 'v1']);
    clock += 4_999;
    await expect(cache.get('k', loads.load)).resolves.toBe('v1');
    expect(loads.calls).toBe(1);
    clock += 1;
    const again = cache.get('k', loads.load);
    loads.resolveAll('v2');
    await expect(again).resolves.toBe('v2');
    expect(loads.calls).toBe(2);
  });

  it('keeps a failure only for negativeTtlMs(error), and nothing with ttlMs 0', async () => {
    const notFound = new Error('unknown');
    const cache = new SingleFlightCache<string>({
      ttlMs: 5_000,
      maxEntries: 10,
      negativeTtlMs: (error) => (error === notFound ? 1_000 : undefined),
      now,
    });
    const loads = heldLoads<string>();
    const first = cache.get('missing', loads.load);
    loads.rejectAll(notFound);
    await expect(first).rejects.toBe(notFound);
    await expect(cache.get('missing', loads.load)).rejects.toBe(notFound); // remembered
    expect(loads.calls).toBe(1);
    const outage = cache.get('down', loads.load);
    loads.rejectAll(new Error('timeout'));
    await expect(outage).rejects.toThrow('timeout');
    const retried = cache.get('down', loads.load); // an outage is asked again
    loads.resolveAll('up');
    await expect(retried).resolves.toBe('up');
    expect(loads.calls).toBe(3);

    const uncached = new SingleFlightCache<string>({ ttlMs: 0, maxEntries: 10, now });
    const zero = heldLoads<string>();
    const shared = Promise.all([uncached.get('k', zero.load), uncached.get('k', zero.load)]);
    zero.resolveAll('v');
    await shared;
    const later = uncached.get('k', zero.load);
    zero.resolveAll('v');
    await later;
    expect(zero.calls).toBe(2);
    expect(uncached.size).toBe(0);
  });

  it('does not store a load that was in flight when clear() was called', async () => {
    const cache = new SingleFlightCache<string>({ ttlMs: 5_000, maxEntries: 10, now });
    const loads = heldLoads<string>();
    const before = cache.get('k', loads.load);
    cache.clear();
    loads.resolveAll('old');
    await expect(before).resolves.toBe('old'); // its own caller still gets an answer
    const after = cache.get('k', loads.load);
    loads.resolveAll('new');
    await expect(after).resolves.toBe('new');
    expect(loads.calls).toBe(2);
  });

  it('turns a synchronous throw into a rejection and rejects bad options', async () => {
    const cache = new SingleFlightCache<string>({ ttlMs: 5_000, maxEntries: 1, now });
    await expect(
      cache.get('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(() => new SingleFlightCache({ ttlMs: -1, maxEntries: 1 })).toThrow(RangeError);
    expect(() => new SingleFlightCache({ ttlMs: 1, maxEntries: 0 })).toThrow(RangeError);
  });
});
