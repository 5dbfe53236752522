// `pnpm migrate` / `pnpm --filter @svc/db migrate`: create the database if needed, then apply the
// pending migrations (like `prisma migrate deploy`, but on the WASM engine: no download).
import { ensureDatabaseExists } from '../database';
import { migrateDatabase } from '../migrate/migrate-database';
import { fail, migrateEnv, redactUrl } from './cli-env';

async function main(): Promise<void> {
  const url = migrateEnv().DATABASE_URL;
  const log = (line: string) => process.stdout.write(`${line}\n`);
  if (await ensureDatabaseExists(url)) log(`created database ${redactUrl(url)}`);
  const { applied } = await migrateDatabase(url, { log });
  log(`${applied.length} migration(s) applied to ${redactUrl(url)}`);
}

main().catch((error: unknown) =>
  fail(`migrate failed: ${error instanceof Error ? error.message : String(error)}`),
);
