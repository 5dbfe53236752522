import { type ServiceClient, serviceClient } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
import { catalogChangedPublisher } from '../src/adapters/catalog-events';
import { describeCapability } from '../src/domain/describe';
import { searchCapabilities } from '../src/domain/search';
import { seedCatalog } from '../src/domain/seed';
import { serveRegistryRpc } from '../src/handlers/rpc';
import { MANIFESTS } from '../src/manifests';
import { SYNTHETIC_MANIFESTS } from './fixtures';
import { type RegistryTestEnv, startTestEnv } from './harness';

let env: RegistryTestEnv;
let server: ReturnType<typeof serveRegistryRpc>;
let client: ServiceClient<PlatformCatalog, 'registry'>;

beforeAll(async () => {
  env = await startTestEnv('rpc');
  await seedCatalog({
    prisma: env.prisma,
    publishCatalogChanged: catalogChangedPublisher(env.bus),
    logger: env.logger,
    manifests: [...MANIFESTS, ...SYNTHETIC_MANIFESTS],
  });
  server = serveRegistryRpc(env.bus, env.prisma);
  await server.waitUntilReady();
  client = serviceClient(env.bus, 'registry', { timeoutMs: 5_000 });
});

afterAll(async () => {
  await server?.close();
  await env?.close();
});

describe('registry over the bus', () => {
  test('search answers what the domain function answers, defaults applied by the catalog schema', async () => {
    const remote = await client.search({ q: 'certificates for my domain' });
    const local = await searchCapabilities(env.prisma, { q: 'certificates for my domain', limit: 20 });
    expect(remote).toEqual(local);
    expect(remote.capabilities[0]?.slug).toBe('crt');
  });

  test('search with a category and a limit, and without q', async () => {
    const remote = await client.search({ category: 'network', limit: 1 });
    expect(remote).toEqual(await searchCapabilities(env.prisma, { category: 'network', limit: 1 }));
    expect(remote.capabilities.map((item) => item.slug)).toEqual(['dns-lookup']);
  });

  test('describe answers what the domain function answers', async () => {
    const remote = await client.describe({ slug: 'crt' });
    expect(remote).toEqual(await describeCapability(env.prisma, 'crt'));
    expect(remote.input_schema).toMatchObject({ required: ['apex'], additionalProperties: false });
  });

  test('describe of an unknown slug comes back as a 404 NotFoundError', async () => {
    const failure = client.describe({ slug: 'no-such-capability' });
    await expect(failure).rejects.toBeInstanceOf(NotFoundError);
    await expect(failure).rejects.toMatchObject({
      status: 404,
      message: 'unknown capability: no-such-capability',
    });
  });

  test('a ping reaches the registry responder', async () => {
    await expect(client.ping({})).resolves.toMatchObject({ service: 'registry' });
  });
});
