// Issue 2's benchmark: search and describe through the whole platform (gateway → cache or
// registry over the bus), beside a bare express "hello" measured in the same run, so the
// platform's overhead reads as a ratio that holds across machines.
import { createPrismaClient } from '@svc/db';
import { insertSyntheticCapabilities } from '@svc/testkit';
import { startHelloServer } from './child-server';
import { formatRowCosts, openCostMeter } from './cpu-cost';
import { type LoadOptions, type LoadResult, measure } from './load';
import { formatTable } from './report';
import { startBenchStack } from './stack-start';

/** The platform's processes, each counted in the CPU per request. */
const SERVICES = ['gateway', 'registry', 'wallet'] as const;
/** Synthetic capabilities added for the at-scale rows (issue: search stays fast at 10,000). */
const CATALOG_SIZE = 10_000;

export async function benchCatalog(options: LoadOptions): Promise<void> {
  const stack = await startBenchStack({ services: SERVICES });
  const meter = await openCostMeter({ stack, services: SERVICES });
  const hello = await startHelloServer();
  try {
    const api = stack.gatewayUrl;
    const rows: LoadResult[] = [];
    const baseline = await measure(
      { name: 'bare express+helmet /hello', url: `${hello.url}/hello` },
      options,
    );
    rows.push(baseline);
    rows.push(
      await measure(
        { name: 'search (cache hit)', url: `${api}/api/capabilities?q=certificate+transparency` },
        options,
        meter,
      ),
    );
    rows.push(
      await measure({ name: 'describe crt (cache hit)', url: `${api}/api/capabilities/crt` }, options, meter),
    );
    // A new q per request: every request misses the gateway cache and goes gateway → bus →
    // registry → PostgreSQL full-text search → back.
    rows.push(
      await measure(
        {
          name: 'search (cache miss: registry over the bus)',
          url: `${api}/api/capabilities`,
          pathFor: (n) => `/api/capabilities?q=certificate+transparency+${n}`,
        },
        options,
        meter,
      ),
    );
    // The same cache-miss path with 10,000 capabilities in the catalog: a selective query (only crt
    // matches) and a broad one (~900 rows match "invoice" and are ranked to return 20).
    const prisma = createPrismaClient(stack.databaseUrl);
    try {
      await insertSyntheticCapabilities(prisma, CATALOG_SIZE);
      await prisma.$executeRaw`VACUUM ANALYZE registry.capabilities`;
    } finally {
      await prisma.$disconnect();
    }
    rows.push(
      await measure(
        {
          name: `search, ${CATALOG_SIZE} in catalog, selective (miss)`,
          url: `${api}/api/capabilities`,
          pathFor: (n) => `/api/capabilities?q=certificate+transparency+${n}`,
        },
        options,
        meter,
      ),
    );
    rows.push(
      await measure(
        {
          name: `search, ${CATALOG_SIZE} in catalog, broad (miss)`,
          url: `${api}/api/capabilities`,
          pathFor: (n) => `/api/capabilities?q=invoice+${n}`,
        },
        options,
        meter,
      ),
    );
    console.log(
      `\nCatalog: ${options.connections} connections, ${options.durationSeconds} s per scenario ` +
        `(after ${options.warmupSeconds} s warm-up), load generator on the same machine.\n`,
    );
    console.log(formatTable(rows, baseline));
    console.log(formatRowCosts(rows));
  } finally {
    await meter.close();
    await hello.server.stop();
    await stack.close();
  }
}
