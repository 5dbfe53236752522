import type { CapabilityRecord } from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
// service-kit cannot depend on @svc/testkit (testkit depends on it): the fixture is imported by path.
import { capabilityRecord } from '../../testkit/src/capability-records';
import { createCapabilityDirectory } from './capability-directory';

// Two published records (only identity matters here: the directory hands records back untouched).
const RECORDS: Readonly<Record<string, CapabilityRecord>> = {
  crt: capabilityRecord('crt', 'supported'),
  whois: capabilityRecord('whois', 'describe_only'),
};

/** A registry stand-in that counts describes and answers when told (to hold calls in flight). */
function fakeRegistry() {
  const calls: string[] = [];
  const pending: Array<{
    slug: string;
    resolve: (record: CapabilityRecord) => void;
    reject: (err: unknown) => void;
  }> = [];
  return {
    calls,
    fetch: (slug: string) =>
      new Promise<CapabilityRecord>((resolve, reject) => {
        calls.push(slug);
        pending.push({ slug, resolve, reject });
      }),
    /** Answers every describe in flight (404 for slugs without a fixture). */
    answerAll() {
      for (const call of pending.splice(0)) {
        const record = RECORDS[call.slug];
        if (record === undefined) call.reject(new NotFoundError(`unknown capability: ${call.slug}`));
        else call.resolve(record);
      }
    },
  };
}

describe('createCapabilityDirectory', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('shares one describe between concurrent callers (single flight)', async () => {
    const registry = fakeRegistry();
    const directory = createCapabilityDirectory({ fetch: registry.fetch, ttlMs: 5_000, now });
    const both = Promise.all([directory.describe('crt'), directory.describe('crt')]);
    registry.answerAll();
    const [a, b] = await both;
    expect(a).toBe(RECORDS.crt);
    expect(b).toBe(a);
    expect(registry.calls).toEqual(['crt']);
  });

  it('reuses an answer for ttlMs, then describes again', async () => {
    const registry = fakeRegistry();
    const directory = createCapabilityDirectory({ fetch: registry.fetch, ttlMs: 5_000, now });
    const first = directory.describe('crt');
    registry.answerAll();
    await first;
    clock += 4_999;
    await expect(directory.describe('crt')).resolves.toBe(RECORDS.crt);
    expect(registry.calls).toHaveLength(1);
    clock += 1;
    const again = directory.describe('crt');
    registry.answerAll();
    await again;
    expect(registry.calls).toHaveLength(2);
  });

  it('never caches an error: an unknown slug is asked again', async () => {
    const registry = fakeRegistry();
    const directory = createCapabilityDirectory({ fetch: registry.fetch, ttlMs: 5_000, now });
    for (let i = 0; i < 2; i += 1) {
      const missing = directory.describe('nope');
      registry.answerAll();
      await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    }
    expect(registry.calls).toEqual(['nope', 'nope']);
  });

  it('clear() forgets cached answers and does not keep one that was in flight', async () => {
    const registry = fakeRegistry();
    const directory = createCapabilityDirectory({ fetch: registry.fetch, ttlMs: 5_000, now });
    const cached = directory.describe('crt');
    registry.answerAll();
    await cached;
    const inFlight = directory.describe('whois');
    directory.clear();
    registry.answerAll();
    // The caller that asked before the change still gets its answer…
    await expect(inFlight).resolves.toBe(RECORDS.whois);
    // …but nothing from before the change is reused.
    const after = Promise.all([directory.describe('crt'), directory.describe('whois')]);
    registry.answerAll();
    await after;
    expect(registry.calls).toEqual(['crt', 'whois', 'crt', 'whois']);
  });

  it('with ttlMs 0 caches nothing but still shares a describe in flight', async () => {
    const registry = fakeRegistry();
    const directory = createCapabilityDirectory({ fetch: registry.fetch, ttlMs: 0, now });
    const both = Promise.all([directory.describe('crt'), directory.describe('crt')]);
    registry.answerAll();
    await both;
    const later = directory.describe('crt');
    registry.answerAll();
    await later;
    expect(registry.calls).toEqual(['crt', 'crt']);
  });
});
