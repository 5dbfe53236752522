// `migrateDatabase`: what `prisma migrate deploy` does, on the WASM engine. The engine applies
// every migration in prisma/migrations that `_prisma_migrations` does not list as applied, and
// records each one there (checksum, started/finished times, steps) exactly as the native engine
// does, so `prisma migrate deploy` / `migrate status` elsewhere agree with what ran here.
import { poolConfig, withClient } from '../connection';
import { withSchemaEngine } from './engine-session';
import { MIGRATIONS_DIR, readMigrationsList, readSchemaFile, SCHEMA_PATH } from './migrations-dir';

export interface MigrateOptions {
  /** Progress lines (`applied 20261121090414_init`); silent when absent. */
  log?: (message: string) => void;
  migrationsDir?: string;
  schemaPath?: string;
}

export interface MigrateResult {
  /** Migrations applied by this call, in order; empty when the database was up to date. */
  applied: string[];
}

/**
 * Session-level advisory lock serialising migrators of one database: services and test suites
 * may all call migrateDatabase at start-up. The engine also takes Prisma's own lock
 * (pg_advisory_lock(72707369)) but gives up after 10 s; waiting on ours first, before starting an
 * engine, lets a second migrator wait as long as the first one needs. Any constant unused
 * elsewhere works; this is "svcmigr" in ASCII.
 */
const MIGRATION_LOCK_KEY = 0x7376636d696772n;

// One engine at a time per process as well: the WASM instance is shared (see wasm-engine.ts) and
// callers migrating different databases concurrently should not interleave on it.
let queue: Promise<unknown> = Promise.resolve();

function serialised<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => {});
  return run;
}

/**
 * Applies pending migrations to `databaseUrl` (which must exist: see ensureDatabaseExists).
 * Idempotent; safe when several processes call it at once (the second waits for the first, then
 * finds nothing to do). Throws when a migration fails; PostgreSQL runs each migration file as one
 * implicit transaction, so the failed one leaves no partial schema, but it stays recorded as
 * failed in `_prisma_migrations` and blocks later runs until resolved (docs/db.md).
 */
export function migrateDatabase(databaseUrl: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  return serialised(async () => {
    const log = options.log ?? (() => {});
    const migrationsList = await readMigrationsList(options.migrationsDir ?? MIGRATIONS_DIR);
    const schema = await readSchemaFile(options.schemaPath ?? SCHEMA_PATH);
    return withClient(poolConfig(databaseUrl), async (lockClient) => {
      await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
      try {
        const { appliedMigrationNames } = await withSchemaEngine(
          databaseUrl,
          (engine) =>
            engine.applyMigrations({
              migrationsList,
              filters: { externalTables: [], externalEnums: [] },
            }),
          // The schema tells the engine which PostgreSQL schemas (auth, registry, wallet) it manages.
          { datamodels: [[schema.path, schema.content]] },
        );
        for (const name of appliedMigrationNames) log(`applied ${name}`);
        if (appliedMigrationNames.length === 0) log('database is up to date');
        return { applied: appliedMigrationNames };
      } finally {
        // Also released when the connection closes, should unlocking fail.
        await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
      }
    });
  });
}
