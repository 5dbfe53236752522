// A migrated template database: the migrations run once per server and per version of the
// migrations folder, and every test database after that is a `CREATE DATABASE … TEMPLATE` copy
// (tens of ms instead of seconds of schema-engine work per suite).
//
// The template's name carries a hash of the migrations folder, so changing, adding or removing a
// migration builds a new one; templates of other hashes are dropped when a new one is built.
// Builders take a session-level advisory lock on the maintenance database, so jest workers and
// concurrent jest runs wait for one build instead of racing. The build is marked finished by
// `IS_TEMPLATE true`: a template left without it (a builder that died) is dropped and rebuilt.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from 'pg';
import { DatabaseError } from 'pg';
import { databaseName, maintenanceConfig, quoteIdentifier, withClient } from '../connection';
import { migrateDatabase } from './migrate-database';
import { MIGRATIONS_DIR, readMigrationsList } from './migrations-dir';

/** Templates are named `<prefix><hash>`; a build drops only other names with its own prefix. */
export const TEMPLATE_PREFIX = 'svc_migrated_';

/** Serialises template builders on one server. Any unused constant: "svctmpl" in ASCII. */
const TEMPLATE_LOCK_KEY = 0x737663746d706cn;

// SQLSTATEs (PostgreSQL appendix A).
/** "source database … is being accessed by other users": a session (often one still exiting) is on it. */
const OBJECT_IN_USE = '55006';
/** "template database … does not exist": another run with other migrations dropped it meanwhile. */
const INVALID_CATALOG_NAME = '3D000';

/** How long a clone retries while the template still has a session, in ms (backends exit in ~10 ms). */
const IN_USE_RETRY_MS = 10_000;
const IN_USE_STEP_MS = 50;
/** How long a builder waits for another builder's lock, in ms: a build takes seconds. */
const LOCK_TIMEOUT_MS = 180_000;

function sqlState(error: unknown): string | undefined {
  return error instanceof DatabaseError ? error.code : undefined;
}

/**
 * sha256 over the migrations folder (each migration's directory name and migration.sql, in apply
 * order, and migration_lock.toml), first 16 hex digits: 64 bits, plenty against accidental clashes.
 */
export async function migrationsHash(migrationsDir: string = MIGRATIONS_DIR): Promise<string> {
  const list = await readMigrationsList(migrationsDir);
  const hash = createHash('sha256');
  hash.update(`lock\0${list.lockfile.content ?? ''}\0`);
  for (const migration of list.migrationDirectories) {
    const read = migration.migrationFile.content;
    const content = read.tag === 'ok' ? read.value : `error:${read.value}`;
    hash.update(`${migration.path}\0${content}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

export interface MigratedTemplateOptions {
  migrationsDir?: string;
  /** Default TEMPLATE_PREFIX; tests of this module use their own, to leave the suites' template be. */
  prefix?: string;
  /** Progress lines (`built template …`); silent when absent. */
  log?: (message: string) => void;
}

/**
 * Makes sure the server behind `databaseUrl` (any database on it) has a finished template for the
 * current migrations and returns its name. Cheap when it exists: one connection, one query.
 */
export async function ensureMigratedTemplate(
  databaseUrl: string,
  options: MigratedTemplateOptions = {},
): Promise<string> {
  const migrationsDir = options.migrationsDir ?? MIGRATIONS_DIR;
  const prefix = options.prefix ?? TEMPLATE_PREFIX;
  const name = `${prefix}${await migrationsHash(migrationsDir)}`;
  const log = options.log ?? (() => {});
  await withClient(maintenanceConfig(databaseUrl), async (client) => {
    await client.query(`SET lock_timeout = ${LOCK_TIMEOUT_MS}`);
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY.toString()]);
    try {
      const found = await client.query<{ datname: string; datistemplate: boolean }>(
        `SELECT datname, datistemplate FROM pg_database WHERE starts_with(datname, $1)`,
        [prefix],
      );
      if (found.rows.some((row) => row.datname === name && row.datistemplate)) return;
      // Half-built (ours without the mark) and stale (other hashes) templates go first.
      for (const row of found.rows) await dropTemplate(client, row.datname);
      const started = Date.now();
      await client.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
      const url = new URL(databaseUrl);
      url.pathname = `/${name}`;
      await migrateDatabase(url.toString(), { migrationsDir });
      // No new sessions from now on (a session on the template blocks every clone), then mark done.
      await client.query(
        `ALTER DATABASE ${quoteIdentifier(name)} WITH ALLOW_CONNECTIONS false IS_TEMPLATE true`,
      );
      log(`built template ${name} in ${Date.now() - started} ms`);
    } finally {
      // Also released when the connection closes, should unlocking fail.
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY.toString()]);
    }
  });
  return name;
}

async function dropTemplate(client: Client, name: string): Promise<void> {
  // PostgreSQL refuses to drop a database marked IS_TEMPLATE.
  await client.query(`ALTER DATABASE ${quoteIdentifier(name)} WITH IS_TEMPLATE false`);
  await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
}

/**
 * Creates the database `databaseUrl` names as a copy of the migrated template (building the
 * template first when needed): the schema every migration produces, and `_prisma_migrations`
 * listing them all, so `migrateDatabase` on it finds nothing to do. Fails if the database exists.
 */
export async function createMigratedDatabase(
  databaseUrl: string,
  options: MigratedTemplateOptions = {},
): Promise<void> {
  const name = databaseName(databaseUrl);
  // Twice at most: a concurrent run with other migrations may drop our template between the
  // ensure and the clone; the second ensure rebuilds it.
  for (let attempt = 1; ; attempt++) {
    const template = await ensureMigratedTemplate(databaseUrl, options);
    try {
      await cloneDatabase(databaseUrl, name, template);
      return;
    } catch (error) {
      if (sqlState(error) !== INVALID_CATALOG_NAME || attempt >= 2) throw error;
    }
  }
}

/** `CREATE DATABASE name TEMPLATE template`, retried while a session on the template exits. */
async function cloneDatabase(databaseUrl: string, name: string, template: string): Promise<void> {
  await withClient(maintenanceConfig(databaseUrl), async (client) => {
    const deadline = Date.now() + IN_USE_RETRY_MS;
    for (;;) {
      try {
        await client.query(`CREATE DATABASE ${quoteIdentifier(name)} TEMPLATE ${quoteIdentifier(template)}`);
        return;
      } catch (error) {
        if (sqlState(error) !== OBJECT_IN_USE || Date.now() >= deadline) throw error;
        await sleep(IN_USE_STEP_MS);
      }
    }
  });
}
