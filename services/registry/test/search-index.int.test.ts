import type { Prisma } from '@svc/db';
import { insertSyntheticCapabilities } from '@svc/testkit';
import { z } from 'zod';
import { catalogChangedPublisher } from '../src/adapters/catalog-events';
import { searchCapabilities, searchSql } from '../src/domain/search';
import { seedCatalog } from '../src/domain/seed';
import { MANIFESTS } from '../src/manifests';
import { type RegistryTestEnv, startTestEnv } from './harness';

/** Rows besides crt: enough that a sequential scan is clearly the wrong plan for a selective query. */
const SYNTHETIC_ROWS = 10_000;

let env: RegistryTestEnv;

beforeAll(async () => {
  env = await startTestEnv('index');
  await seedCatalog({
    prisma: env.prisma,
    publishCatalogChanged: catalogChangedPublisher(env.bus),
    logger: env.logger,
    manifests: MANIFESTS,
  });
  await insertSyntheticCapabilities(env.prisma, SYNTHETIC_ROWS);
  // VACUUM, not only ANALYZE: a bulk insert lands in the GIN index's pending list (fastupdate),
  // which every index scan must read in full, so the planner rightly prefers a table scan until the
  // list is merged. Autovacuum merges it in production; the catalog is written only at seed time.
  await env.prisma.$executeRaw`VACUUM ANALYZE registry.capabilities`;
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const PlanRow = z.object({ 'QUERY PLAN': z.string() });

async function explain(sql: Prisma.Sql): Promise<string> {
  const rows = z.array(PlanRow).parse(await env.prisma.$queryRaw`EXPLAIN ${sql}`);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

describe(`search over ${SYNTHETIC_ROWS} capabilities`, () => {
  test.each(['certificate transparency', 'find subdomains', 'certificates for my domain'])(
    'the search statement for %j reads the GIN index, not the table',
    async (q) => {
      const plan = await explain(searchSql({ q, limit: 20 }));
      expect(plan).toContain('Bitmap Index Scan on capabilities_search_vector_idx');
      expect(plan).not.toContain('Seq Scan');
    },
  );

  test('the same statement finds crt first among them', async () => {
    const response = await searchCapabilities(env.prisma, { q: 'certificates for my domain', limit: 5 });
    expect(response.capabilities[0]?.slug).toBe('crt');
  });

  test('a broad query still answers, bounded by the limit', async () => {
    const response = await searchCapabilities(env.prisma, { q: 'synthetic invoice', limit: 100 });
    expect(response.capabilities).toHaveLength(100);
    // Rows that say both words outrank rows that only say "synthetic".
    for (const item of response.capabilities) expect(item.name).toMatch(/invoice/);
  });
});
