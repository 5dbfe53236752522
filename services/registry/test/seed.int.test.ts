import { type Subscription, subscribeEvents } from '@svc/bus';
import type { CapabilityManifest, EventPayload } from '@svc/contracts';
import { pollUntil } from '@svc/testkit';
import { catalogChangedPublisher } from '../src/adapters/catalog-events';
import { seedCatalog } from '../src/domain/seed';
import { crtManifest, MANIFESTS } from '../src/manifests';
import { dnsLookupManifest, pdfOcrManifest } from './fixtures';
import { type RegistryTestEnv, startTestEnv } from './harness';

/** Every manifest in code, in slug order (the order catalog.changed lists them in). */
const ALL_SLUGS = MANIFESTS.map((manifest) => manifest.slug).sort();

/** ms: how long we listen to be sure no event was published (pub/sub delivery is sub-ms on loopback). */
const QUIET_MS = 300;

let env: RegistryTestEnv;
let subscription: Subscription;
const events: EventPayload<'catalog.changed'>[] = [];

beforeAll(async () => {
  env = await startTestEnv('seed');
  subscription = subscribeEvents(env.bus, { 'catalog.changed': (payload) => void events.push(payload) });
  await subscription.waitUntilReady();
});

afterAll(async () => {
  await subscription?.close();
  await env?.close();
});

beforeEach(() => {
  events.length = 0;
});

const seed = (manifests: readonly CapabilityManifest[]) =>
  seedCatalog({
    prisma: env.prisma,
    publishCatalogChanged: catalogChangedPublisher(env.bus),
    logger: env.logger,
    manifests,
  });

async function waitForEvents(count: number): Promise<void> {
  await pollUntil(() => events.length >= count, {
    what: `${count} catalog.changed event(s)`,
    timeoutMs: 5_000,
  });
  // Then a little longer, to catch an unexpected extra event.
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
}

describe('seedCatalog', () => {
  test('first seed inserts every manifest and publishes catalog.changed with their slugs', async () => {
    const result = await seed(MANIFESTS);
    expect([...result.inserted].sort()).toEqual(ALL_SLUGS);
    expect(result.updated).toEqual([]);
    expect(result.publishedVersion).toMatch(/^[0-9a-f]{32}$/);

    const row = await env.prisma.capability.findUniqueOrThrow({ where: { slug: 'crt' } });
    expect(row).toMatchObject({
      name: crtManifest.name,
      category: 'security',
      machineRunStatus: 'supported',
      runtime: 'node',
    });
    expect(row.manifestHash).toMatch(/^[0-9a-f]{64}$/);

    await waitForEvents(1);
    expect(events).toEqual([{ version: result.publishedVersion, changed_slugs: ALL_SLUGS }]);
  });

  test('a second seed of the same manifests writes nothing and publishes nothing', async () => {
    const before = await env.prisma.capability.findUniqueOrThrow({ where: { slug: 'crt' } });
    const result = await seed(MANIFESTS);
    expect(result).toMatchObject({ inserted: [], updated: [], publishedVersion: null });
    expect([...result.unchanged].sort()).toEqual(ALL_SLUGS);
    const after = await env.prisma.capability.findUniqueOrThrow({ where: { slug: 'crt' } });
    expect(after.updatedAt).toEqual(before.updatedAt);
    await waitForEvents(0);
    expect(events).toEqual([]);
  });

  test('a changed manifest is updated and announced with a new catalog version', async () => {
    const first = await env.prisma.capability.findUniqueOrThrow({ where: { slug: 'crt' } });
    const changed: CapabilityManifest = {
      ...crtManifest,
      description: `${crtManifest.description} Changed.`,
    };
    const result = await seed([changed]);
    expect(result).toMatchObject({ inserted: [], updated: ['crt'], unchanged: [] });

    const row = await env.prisma.capability.findUniqueOrThrow({ where: { slug: 'crt' } });
    expect(row.description).toBe(changed.description);
    expect(row.manifestHash).not.toBe(first.manifestHash);
    expect(row.updatedAt.getTime()).toBeGreaterThan(first.updatedAt.getTime());

    await waitForEvents(1);
    expect(events).toHaveLength(1);
    expect(events[0]?.changed_slugs).toEqual(['crt']);
    expect(events[0]?.version).toBe(result.publishedVersion);

    // Back to the code's version: changed again, with yet another version.
    const restored = await seed(MANIFESTS);
    expect(restored.updated).toEqual(['crt']);
    expect(restored.publishedVersion).not.toBe(result.publishedVersion);
    await waitForEvents(2);
    expect(events[1]?.version).toBe(restored.publishedVersion);
  });

  test('a change to the input schema alone is a change', async () => {
    const narrower: CapabilityManifest = { ...crtManifest, input: crtManifest.input.describe('changed') };
    const result = await seed([narrower]);
    expect(result.updated).toEqual(['crt']);
    await seed(MANIFESTS);
    // Both announcements arrive before the next test starts listening.
    await waitForEvents(2);
    expect(events.map((event) => event.changed_slugs)).toEqual([['crt'], ['crt']]);
  });

  test('two replicas seeding at once: each change is applied and announced exactly once', async () => {
    const manifests = [...MANIFESTS, pdfOcrManifest, dnsLookupManifest];
    const [a, b] = await Promise.all([seed(manifests), seed(manifests)]);
    const inserted = [...(a?.inserted ?? []), ...(b?.inserted ?? [])].sort();
    expect(inserted).toEqual(['dns-lookup', 'pdf-ocr']);
    expect([...(a?.updated ?? []), ...(b?.updated ?? [])]).toEqual([]);
    await waitForEvents(1);
    const announced = events.flatMap((event) => event.changed_slugs).sort();
    expect(announced).toEqual(['dns-lookup', 'pdf-ocr']);
  });

  test('a manifest removed from code is kept and reported, not deleted', async () => {
    const warnings: unknown[] = [];
    const logger = { info: () => {}, warn: (obj: unknown) => void warnings.push(obj) };
    const result = await seedCatalog({
      prisma: env.prisma,
      publishCatalogChanged: catalogChangedPublisher(env.bus),
      logger,
      manifests: MANIFESTS,
    });
    expect(result.orphaned.sort()).toEqual(['dns-lookup', 'pdf-ocr']);
    expect(warnings).toEqual([{ slugs: expect.arrayContaining(['dns-lookup', 'pdf-ocr']) }]);
    expect(await env.prisma.capability.count()).toBe(MANIFESTS.length + 2);
    expect(result.publishedVersion).toBeNull();
  });

  test('an invalid manifest fails the seed before anything is written', async () => {
    const bad = { ...crtManifest, slug: 'Not A Slug' };
    await expect(seed([bad])).rejects.toThrow();
    const duplicate = [crtManifest, crtManifest];
    await expect(seed(duplicate)).rejects.toThrow('two manifests share the slug "crt"');
    expect(await env.prisma.capability.count()).toBe(MANIFESTS.length + 2);
  });
});
