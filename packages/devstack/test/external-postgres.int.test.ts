// An external PostgreSQL (DATABASE_URL): used when it answers, a clear error when it does not, and
// the createDatabase/dropDatabase helpers the test harness builds on.
import os from 'node:os';
import { Client } from 'pg';
import {
  createDatabase,
  dropDatabase,
  ensurePostgres,
  freePort,
  pingPostgres,
  withDatabase,
} from '../src/index';

const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const suffix = `${process.pid}_${Date.now()}`;

async function databaseExists(name: string): Promise<boolean> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('ensurePostgres (external)', () => {
  const created: string[] = [];
  afterAll(async () => {
    for (const name of created) await dropDatabase(adminUrl, name);
  });

  it('uses a server that answers and starts nothing', async () => {
    const handle = await ensurePostgres({ databaseUrl: adminUrl, dataDir: os.tmpdir() });
    expect(handle).toMatchObject({ url: adminUrl, embedded: false });
    await handle.stop();
    expect(await pingPostgres(adminUrl)).toBe(true);
  });

  it("creates the URL's database when the server answers but the database is missing", async () => {
    const name = `devstack_ext_${suffix}`;
    created.push(name);
    const url = withDatabase(adminUrl, name);
    expect(await databaseExists(name)).toBe(false);
    const handle = await ensurePostgres({ databaseUrl: url, dataDir: os.tmpdir() });
    expect(handle.url).toBe(url);
    expect(await databaseExists(name)).toBe(true);
    expect(await pingPostgres(url)).toBe(true);
  });

  it('fails with advice, after retrying, when nothing listens; the password is never shown', async () => {
    const url = `postgres://app:hunter2secret@127.0.0.1:${await freePort()}/capability_service`;
    const started = Date.now();
    const failure = ensurePostgres({ databaseUrl: url, dataDir: os.tmpdir() });
    await expect(failure).rejects.toThrow(/Nothing listens there: start PostgreSQL .* or unset DATABASE_URL/);
    await expect(failure).rejects.toThrow('postgres://app:***@127.0.0.1');
    await expect(failure).rejects.not.toThrow(/hunter2secret/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4500); // retried for ~5 s (a server still starting)
  });

  it('names the variable the URL came from and rejects non-postgres URLs', async () => {
    await expect(
      ensurePostgres({
        databaseUrl: 'mysql://u:pw@h/db',
        dataDir: os.tmpdir(),
        variableName: 'TEST_DATABASE_ADMIN_URL',
      }),
    ).rejects.toThrow('TEST_DATABASE_ADMIN_URL must be a postgres:// URL, got mysql://u:***@h/db');
    await expect(ensurePostgres({ databaseUrl: 'not a url', dataDir: os.tmpdir() })).rejects.toThrow(
      'DATABASE_URL is not a valid URL',
    );
  });
});

describe('createDatabase / dropDatabase', () => {
  const name = `devstack_db_${suffix}`;
  afterAll(() => dropDatabase(adminUrl, name));

  it('creates, refuses a duplicate unless ifNotExists, and drops despite open connections', async () => {
    expect(await createDatabase(adminUrl, name)).toBe(true);
    expect(await databaseExists(name)).toBe(true);
    await expect(createDatabase(adminUrl, name)).rejects.toThrow(/already exists/);
    expect(await createDatabase(adminUrl, name, { ifNotExists: true })).toBe(false);

    const open = new Client({ connectionString: withDatabase(adminUrl, name) });
    open.on('error', () => undefined); // FORCE terminates this session
    await open.connect();
    await dropDatabase(adminUrl, name);
    expect(await databaseExists(name)).toBe(false);
    await open.end().catch(() => undefined);
    await dropDatabase(adminUrl, name); // IF EXISTS: dropping again is fine
  });

  it('validates names before they reach SQL', async () => {
    await expect(createDatabase(adminUrl, 'Bad-Name')).rejects.toThrow(/invalid database name/);
    await expect(dropDatabase(adminUrl, 'x"; DROP DATABASE postgres; --')).rejects.toThrow(
      /invalid database name/,
    );
  });
});
