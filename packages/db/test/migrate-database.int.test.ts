import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { poolConfig } from '../src/connection';
import { dropDatabase, ensureDatabaseExists, MIGRATIONS_DIR, migrateDatabase } from '../src/index';
import { adminUrl, uniqueDatabaseUrl } from './test-database';

const INIT = '20261121090414_init';
const DASHBOARD_SCHEMA = '20261207130000_dashboard_schema';
/** Every migration in the repository, oldest first: a fresh database gets all of them. */
const ALL = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && /^\d{14}_/.test(entry.name))
  .map((entry) => entry.name)
  .sort();

async function query<R extends object>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new Client(poolConfig(url));
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('migrateDatabase', () => {
  const created: string[] = [];
  async function freshDatabase(label: string): Promise<string> {
    const url = uniqueDatabaseUrl(label);
    created.push(url);
    expect(await ensureDatabaseExists(url)).toBe(true);
    return url;
  }

  // DROP DATABASE forces a checkpoint: a few hundred ms each, more than jest's default 5 s in all.
  afterAll(async () => {
    await Promise.all(created.map((url) => dropDatabase(url)));
  }, 60_000);

  it('creates every table in its service schema and records the migration like migrate deploy', async () => {
    const url = await freshDatabase('fresh');
    const lines: string[] = [];
    const result = await migrateDatabase(url, { log: (line) => lines.push(line) });
    expect(ALL[0]).toBe(INIT);
    expect(result.applied).toEqual(ALL);
    expect(lines).toEqual(ALL.map((name) => `applied ${name}`));

    const tables = await query<{ schema: string; name: string }>(
      url,
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_schema IN ('auth', 'dashboard', 'registry', 'wallet', 'orchestrator', 'public') ORDER BY 1, 2`,
    );
    expect(tables).toEqual([
      { schema: 'auth', name: 'api_keys' },
      { schema: 'auth', name: 'clients' },
      { schema: 'dashboard', name: 'accounts' },
      { schema: 'dashboard', name: 'sessions' },
      { schema: 'orchestrator', name: 'runs' },
      { schema: 'public', name: '_prisma_migrations' },
      { schema: 'registry', name: 'capabilities' },
      { schema: 'wallet', name: 'account_periods' },
      { schema: 'wallet', name: 'accounts' },
      { schema: 'wallet', name: 'ledger_entries' },
      { schema: 'wallet', name: 'open_holds' },
      { schema: 'wallet', name: 'quotes' },
    ]);

    const rows = await query<{
      migration_name: string;
      finished: boolean;
      rolled_back: boolean;
      applied_steps_count: number;
      checksum: string;
    }>(
      url,
      `SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back,
              applied_steps_count, checksum FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows).toHaveLength(ALL.length);
    expect(rows[0]).toMatchObject({
      migration_name: INIT,
      finished: true,
      rolled_back: false,
      applied_steps_count: 1,
    });
    // Prisma's checksum: SHA-256 (hex) of migration.sql, what `prisma migrate deploy` compares.
    expect(rows[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is a no-op the second time', async () => {
    const url = await freshDatabase('twice');
    await migrateDatabase(url);
    const lines: string[] = [];
    expect(await migrateDatabase(url, { log: (line) => lines.push(line) })).toEqual({ applied: [] });
    expect(lines).toEqual(['database is up to date']);
    const count = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM _prisma_migrations');
    expect(count[0]?.n).toBe(String(ALL.length));
  });

  it('survives concurrent calls in one process', async () => {
    const url = await freshDatabase('concurrent');
    const results = await Promise.all([migrateDatabase(url), migrateDatabase(url), migrateDatabase(url)]);
    expect(results.flatMap((r) => r.applied)).toEqual(ALL);
  });

  it('survives concurrent `migrate` processes (advisory lock)', async () => {
    const url = await freshDatabase('processes');
    const root = path.resolve(__dirname, '..', '..', '..');
    const run = () =>
      promisify(execFile)(path.join(root, 'node_modules', '.bin', 'tsx'), ['src/cli/migrate.ts'], {
        cwd: path.resolve(__dirname, '..'),
        env: { ...process.env, DATABASE_URL: url },
      });
    const outputs = await Promise.all([run(), run(), run()]);
    const applied = outputs.map((o) => o.stdout).filter((out) => out.includes(`applied ${INIT}`));
    expect(applied).toHaveLength(1);
    const rows = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM _prisma_migrations');
    expect(rows[0]?.n).toBe(String(ALL.length));
  }, 60_000);

  it('creates the full-text GIN index and the other indexes', async () => {
    const url = await freshDatabase('indexes');
    await migrateDatabase(url);
    const indexes = await query<{ indexname: string; indexdef: string }>(
      url,
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname IN ('auth', 'registry', 'wallet') ORDER BY 1`,
    );
    const byName = Object.fromEntries(indexes.map((i) => [i.indexname, i.indexdef]));
    expect(byName.capabilities_search_vector_idx).toMatch(/USING gin \(search_vector\)/);
    expect(byName.capabilities_category_idx).toBeDefined();
    expect(byName.ledger_entries_run_id_kind_key).toMatch(/UNIQUE INDEX .*\(run_id, kind\)/);
    expect(byName.ledger_entries_client_id_created_at_idx).toMatch(/\(client_id, created_at\)/);
    expect(byName.api_keys_key_id_key).toMatch(/UNIQUE/);
    const generated = await query<{ attgenerated: string }>(
      url,
      `SELECT attgenerated FROM pg_attribute WHERE attrelid = 'registry.capabilities'::regclass AND attname = 'search_vector'`,
    );
    expect(generated).toEqual([{ attgenerated: 's' }]);
  });

  /** A copy of the real migrations plus one extra, in a temporary folder. */
  async function withExtraMigration(name: string, script: string, run: (dir: string) => Promise<void>) {
    const migrationsDir = await mkdtemp(path.join(tmpdir(), 'svc-db-extra-'));
    try {
      await cp(MIGRATIONS_DIR, migrationsDir, { recursive: true });
      await mkdir(path.join(migrationsDir, name));
      await writeFile(path.join(migrationsDir, name, 'migration.sql'), script);
      await run(migrationsDir);
    } finally {
      await rm(migrationsDir, { recursive: true, force: true });
    }
  }

  it('sends each migration whole: `;` in comments, literals and function bodies is fine', async () => {
    const url = await freshDatabase('semicolons');
    const script = [
      '-- a comment; with a semicolon',
      "CREATE TABLE wallet.semi (note text DEFAULT 'a;b');",
      'CREATE FUNCTION wallet.two() RETURNS int LANGUAGE plpgsql AS $$ BEGIN PERFORM 1; RETURN 2; END $$;',
    ].join('\n');
    await withExtraMigration('29990101000000_semicolons', script, async (migrationsDir) => {
      expect((await migrateDatabase(url, { migrationsDir })).applied).toEqual([
        ...ALL,
        '29990101000000_semicolons',
      ]);
    });
    const rows = await query<{ note: string; two: number }>(
      url,
      'INSERT INTO wallet.semi DEFAULT VALUES RETURNING note, wallet.two() AS two',
    );
    expect(rows).toEqual([{ note: 'a;b', two: 2 }]);
  });

  it('runs a failing migration atomically, records it as failed and reports it', async () => {
    const url = await freshDatabase('failing');
    const script = 'CREATE TABLE wallet.half_done (note text);\nSELECT 1 / 0;';
    await withExtraMigration('29990101000000_broken', script, async (migrationsDir) => {
      const failure = await migrateDatabase(url, { migrationsDir }).then(
        () => new Error('no error'),
        (error: Error) => error,
      );
      expect(failure.message).toContain('division by zero');
      expect(failure.message).toContain('29990101000000_broken');
      // PostgreSQL ran the file as one implicit transaction: the first statement is undone too.
      expect(await query(url, "SELECT 1 FROM pg_tables WHERE tablename = 'half_done'")).toEqual([]);
      const rows = await query<{ migration_name: string; finished: boolean }>(
        url,
        'SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY 1',
      );
      expect(rows).toEqual([
        ...ALL.map((name) => ({ migration_name: name, finished: true })),
        { migration_name: '29990101000000_broken', finished: false },
      ]);
      // Recorded as failed, it blocks later runs until resolved, as with `prisma migrate deploy`.
      await expect(migrateDatabase(url, { migrationsDir })).rejects.toThrow(/P3009/);
    });
  });

  it('moves the dashboard accounts and sessions, rows included, from auth to the dashboard schema', async () => {
    const url = await freshDatabase('dashboardmove');
    const index = ALL.indexOf(DASHBOARD_SCHEMA);
    expect(index).toBeGreaterThan(0);
    // The database as it was before the dashboard became its own process, with a signed-in person.
    const before = await mkdtemp(path.join(tmpdir(), 'svc-db-before-'));
    try {
      for (const name of ALL.slice(0, index)) {
        await cp(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
      }
      await cp(path.join(MIGRATIONS_DIR, 'migration_lock.toml'), path.join(before, 'migration_lock.toml'));
      await migrateDatabase(url, { migrationsDir: before });
    } finally {
      await rm(before, { recursive: true, force: true });
    }
    const [client] = await query<{ id: string }>(
      url,
      "INSERT INTO auth.clients (name) VALUES ('acme') RETURNING id",
    );
    const [account] = await query<{ id: string }>(
      url,
      `INSERT INTO auth.dashboard_accounts (client_id, email, password_hash, role)
       VALUES ($1, 'owner@acme.test', '$argon2id$x', 'owner') RETURNING id`,
      [client?.id],
    );
    await query(
      url,
      `INSERT INTO auth.dashboard_sessions (account_id, token_hash, expires_at)
       VALUES ($1, '\\x01', now() + interval '1 hour')`,
      [account?.id],
    );

    expect((await migrateDatabase(url)).applied).toEqual(ALL.slice(index));
    expect(await query(url, 'SELECT id, client_id, email, role FROM dashboard.accounts')).toEqual([
      { id: account?.id, client_id: client?.id, email: 'owner@acme.test', role: 'owner' },
    ]);
    expect(await query(url, 'SELECT account_id FROM dashboard.sessions')).toEqual([
      { account_id: account?.id },
    ]);
    expect(
      await query(
        url,
        "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'dashboard_%'",
      ),
    ).toEqual([]);
    // No foreign key into another service's schema; deleting an account still ends its sessions.
    const foreign = await query<{ name: string; target: string }>(
      url,
      `SELECT conname AS name, confrelid::regclass::text AS target FROM pg_constraint
       WHERE contype = 'f' AND connamespace = 'dashboard'::regnamespace`,
    );
    expect(foreign).toEqual([{ name: 'sessions_account_id_fkey', target: 'dashboard.accounts' }]);
    await query(url, 'DELETE FROM dashboard.accounts');
    expect(await query(url, 'SELECT 1 FROM dashboard.sessions')).toEqual([]);
  });

  it('fails loudly on a database that does not exist', async () => {
    const url = uniqueDatabaseUrl('missing');
    await expect(migrateDatabase(url)).rejects.toThrow(/does not exist/);
  });
});

describe('ensureDatabaseExists / dropDatabase', () => {
  it('creates once under a race, then drops', async () => {
    const url = uniqueDatabaseUrl('race');
    try {
      const results = await Promise.all(Array.from({ length: 5 }, () => ensureDatabaseExists(url)));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await ensureDatabaseExists(url)).toBe(false);
    } finally {
      await dropDatabase(url);
    }
    const name = new URL(url).pathname.slice(1);
    const left = await query(adminUrl(), 'SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    expect(left).toEqual([]);
  });
});
