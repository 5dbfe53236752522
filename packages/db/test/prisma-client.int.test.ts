import type { PrismaClient } from '../src/index';
import { createMigratedDatabase, createPrismaClient, dropDatabase, Prisma } from '../src/index';
import { uniqueDatabaseUrl } from './test-database';

const capability = (
  slug: string,
  fields: Partial<Prisma.CapabilityCreateInput> = {},
): Prisma.CapabilityCreateInput => ({
  slug,
  name: 'Example',
  description: 'Does nothing in particular',
  category: 'misc',
  tags: [],
  version: '1.0.0',
  pricing: { model: 'free' },
  fileRequirements: { accepts_files: false },
  execution: { machine_run_status: 'runnable' },
  machineRunStatus: 'runnable',
  runtime: 'node',
  inputSchema: { type: 'object' },
  manifestHash: 'sha256:0',
  ...fields,
});

describe('Prisma client on the migrated schema', () => {
  const url = uniqueDatabaseUrl('client');
  let prisma: PrismaClient;

  beforeAll(async () => {
    await createMigratedDatabase(url);
    prisma = createPrismaClient(url, { max: 2 });
  }, 60_000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await dropDatabase(url);
  }, 60_000);

  /** Slugs whose search_vector matches a natural-language query, best first. */
  async function search(q: string): Promise<string[]> {
    const rows = await prisma.$queryRaw<{ slug: string }[]>`
      SELECT slug FROM registry.capabilities
      WHERE search_vector @@ websearch_to_tsquery('english', ${q})
      ORDER BY ts_rank(search_vector, websearch_to_tsquery('english', ${q})) DESC, slug`;
    return rows.map((row) => row.slug);
  }

  it('computes search_vector in PostgreSQL from name, slug, category, tags and description', async () => {
    await prisma.capability.create({
      data: capability('tls-inspect', {
        name: 'TLS Inspector',
        description: 'Reads the certificate chain a server presents',
        category: 'security',
        tags: ['x509', 'expiry'],
      }),
    });
    // Created without tags: PostgreSQL stores NULL, which must not blank the whole vector.
    const { tags: _none, ...withoutTags } = capability('dns-lookup', {
      name: 'DNS Lookup',
      category: 'network',
    });
    await prisma.capability.create({ data: withoutTags });

    expect(await search('certificates')).toEqual(['tls-inspect']); // stemmed: certificate(s) → certif
    expect(await search('inspect')).toEqual(['tls-inspect']); // slug words
    expect(await search('expiry')).toEqual(['tls-inspect']); // tags
    expect(await search('network')).toEqual(['dns-lookup']); // category, tags NULL
    expect(await search('lookup')).toEqual(['dns-lookup']);
    expect(await search('kangaroo')).toEqual([]);
  });

  it('ranks a name match (A) above a description match (C)', async () => {
    await prisma.capability.create({
      data: capability('whois', { name: 'Whois', description: 'Registry data' }),
    });
    await prisma.capability.create({
      data: capability('domain-age', { name: 'Domain age', description: 'Uses whois records' }),
    });
    expect(await search('whois')).toEqual(['whois', 'domain-age']);
  });

  it('keeps the vector in step with updates', async () => {
    await prisma.capability.update({
      where: { slug: 'whois' },
      data: { description: 'Now about kangaroos' },
    });
    expect(await search('kangaroo')).toEqual(['whois']);
  });

  it('round-trips BigInt micro-USD beyond 2^53 and negative amounts', async () => {
    const client = await prisma.client.create({ data: { name: 'money' } });
    const big = 9_007_199_254_740_993n; // 2^53 + 1: not representable as a JS number
    await prisma.walletAccount.create({ data: { clientId: client.id, spendCapMicros: big } });
    await prisma.ledgerEntry.create({
      data: { clientId: client.id, kind: 'credit', amountMicros: 5_000_000n },
    });
    await prisma.ledgerEntry.create({
      data: { clientId: client.id, kind: 'adjustment', amountMicros: -1_250_000n },
    });

    const account = await prisma.walletAccount.findUniqueOrThrow({ where: { clientId: client.id } });
    expect(account.spendCapMicros).toBe(big);
    const sum = await prisma.ledgerEntry.aggregate({
      where: { clientId: client.id },
      _sum: { amountMicros: true },
    });
    expect(sum._sum.amountMicros).toBe(3_750_000n);
  });

  it('enforces one ledger line per (run_id, kind)', async () => {
    const client = await prisma.client.create({ data: { name: 'runs' } });
    const runId = '0b7c6f1e-4d1a-4f43-9d8e-2a8f6c1b9e01';
    const hold = { clientId: client.id, kind: 'hold' as const, amountMicros: -100n, runId };
    await prisma.ledgerEntry.create({ data: hold });
    await expect(prisma.ledgerEntry.create({ data: hold })).rejects.toMatchObject({ code: 'P2002' });
    // Another kind for the same run, and lines without a run, are fine.
    await prisma.ledgerEntry.create({ data: { ...hold, kind: 'capture' } });
    await prisma.ledgerEntry.create({ data: { clientId: client.id, kind: 'credit', amountMicros: 1n } });
    await prisma.ledgerEntry.create({ data: { clientId: client.id, kind: 'credit', amountMicros: 1n } });
    expect(await prisma.ledgerEntry.count({ where: { clientId: client.id } })).toBe(4);
  });

  it('generates uuid ids in the database and round-trips bytes and text[]', async () => {
    const hash = Uint8Array.from({ length: 32 }, (_, i) => i);
    const client = await prisma.client.create({
      data: {
        name: 'keys',
        apiKeys: { create: { keyId: 'k1', secretHash: hash, scopes: ['capabilities:read'] } },
      },
      include: { apiKeys: true },
    });
    expect(client.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const key = await prisma.apiKey.findUniqueOrThrow({ where: { keyId: 'k1' } });
    expect(Array.from(key.secretHash)).toEqual(Array.from(hash));
    expect(key.scopes).toEqual(['capabilities:read']);
    expect(key.clientId).toBe(client.id);
    await expect(
      prisma.apiKey.create({ data: { keyId: 'k1', clientId: client.id, secretHash: hash, scopes: [] } }),
    ).rejects.toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
  });
});
