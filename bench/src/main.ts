// `pnpm bench [scenario]`: finds or starts PostgreSQL and Redis (as the integration tests do),
// runs the scenarios and prints their figures. Figures go to docs/performance.md by hand, with the
// date and the machine. Tune with BENCH_CONNECTIONS (32), BENCH_DURATION_S (10), BENCH_WARMUP_S (3),
// BENCH_SCALE_JOBS (60: jobs per phase of `scale`). Issue 15's targets: `crt` (vs a bare BullMQ
// round trip), `pii`, `whoami`, `mcp`, `scale` (1 vs 2 worker processes), `stored-runs` (1,000 vs
// 1,000,000 stored runs); each prints its ratios beside the target. Issue 16: `vault` (fields written and
// listed per second beside the quote endpoint; fill-document p50/p99, BENCH_VAULT_FILLS fills).
// Issue 25: every scenario on a platform also prints the CPU ms each operation costs each platform
// process, PostgreSQL's backends and Redis (cpu-cost.ts): the figure that carries between machines.
import { findWorkspaceRoot, prepareIntegrationStack } from '@svc/devstack';
import { benchCatalog } from './catalog';
import { benchCrt } from './crt';
import { benchLedger } from './ledger';
import type { LoadOptions } from './load';
import { benchMcp } from './mcp';
import { benchPii } from './pii';
import { benchRateLimit } from './rate-limit';
import { benchScale } from './scale';
import { benchStoredRuns } from './stored-runs';
import { benchUploads } from './uploads';
import { benchVault } from './vault';
import { benchWhoami } from './whoami';

const scenarios: Record<string, (options: LoadOptions) => Promise<void>> = {
  catalog: benchCatalog,
  crt: benchCrt,
  pii: benchPii,
  ledger: async () => benchLedger(),
  mcp: benchMcp,
  'rate-limit': benchRateLimit,
  uploads: async () => benchUploads(),
  whoami: benchWhoami,
  scale: benchScale,
  'stored-runs': benchStoredRuns,
  vault: benchVault,
};

function intFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${text}"`);
  return value;
}

async function main(): Promise<void> {
  const requested = process.argv.slice(2);
  const unknown = requested.filter((name) => !(name in scenarios));
  if (unknown.length > 0) {
    throw new Error(
      `unknown scenario(s): ${unknown.join(', ')}; known: ${Object.keys(scenarios).join(', ')}`,
    );
  }
  const options: LoadOptions = {
    connections: intFromEnv('BENCH_CONNECTIONS', 32),
    durationSeconds: intFromEnv('BENCH_DURATION_S', 10),
    warmupSeconds: intFromEnv('BENCH_WARMUP_S', 3),
  };
  const infra = await prepareIntegrationStack({
    rootDir: findWorkspaceRoot(__dirname),
    givenDatabaseUrl: process.env.TEST_DATABASE_ADMIN_URL,
    givenRedisUrl: process.env.TEST_REDIS_URL,
  });
  process.env.TEST_DATABASE_ADMIN_URL = infra.databaseAdminUrl;
  process.env.TEST_REDIS_URL = infra.redisUrl;
  try {
    for (const name of requested.length > 0 ? requested : Object.keys(scenarios)) {
      await scenarios[name]?.(options);
    }
  } finally {
    await Promise.allSettled(infra.stops.map((stop) => stop()));
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
