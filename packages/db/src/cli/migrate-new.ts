// `pnpm --filter @svc/db migrate:new <name> [--empty]`: diff prisma/schema.prisma against
// prisma/migrations and write the next migration directory (like `prisma migrate dev
// --create-only`, on the WASM engine). Needs a PostgreSQL server for a throw-away shadow
// database: DATABASE_URL's server, or the local default.
import { createMigration } from '../migrate/create-migration';
import { fail, migrateNewEnv, redactUrl } from './cli-env';

const USAGE = 'usage: pnpm --filter @svc/db migrate:new <name> [--empty]   (name: lower_snake_case)';

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((arg) => arg !== '--');
  const empty = args.includes('--empty');
  const names = args.filter((arg) => arg !== '--empty');
  if (names.length !== 1 || names[0] === undefined || names[0].startsWith('-')) fail(USAGE);
  const url = migrateNewEnv().DATABASE_URL;
  process.stdout.write(`shadow database server: ${redactUrl(url)}\n`);
  const created = await createMigration(names[0], { databaseUrl: url, empty });
  if (created.dir === null) {
    process.stdout.write('schema.prisma matches the migrations: nothing to write (--empty forces one)\n');
    return;
  }
  process.stdout.write(`wrote ${created.dir}/migration.sql\n${created.script ?? ''}`);
  process.stdout.write('review it (hand edits allowed before it is applied anywhere), then `pnpm migrate`\n');
}

main().catch((error: unknown) =>
  fail(`migrate:new failed: ${error instanceof Error ? error.message : String(error)}`),
);
