import { randomBytes } from 'node:crypto';
import { appendFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { maintenanceConfig, poolConfig } from '../src/connection';
import {
  createMigratedDatabase,
  dropDatabase,
  ensureMigratedTemplate,
  MIGRATIONS_DIR,
  migrateDatabase,
  migrationsHash,
} from '../src/index';
import { adminUrl, uniqueDatabaseUrl } from './test-database';

// The migrated template the suites' databases are copied from (src/migrate/template-database.ts).
// This suite builds its templates under its own prefix and from a copy of the migrations folder,
// so it never drops or rebuilds the template the other suites are copying at the same time.
const PREFIX = `svc_tpltest_${randomBytes(3).toString('hex')}_`;

async function query<R extends object>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new Client(poolConfig(url));
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

interface TemplateRow {
  datname: string;
  datistemplate: boolean;
  datallowconn: boolean;
}

function ourTemplates(): Promise<TemplateRow[]> {
  return query<TemplateRow>(
    adminUrl(),
    'SELECT datname, datistemplate, datallowconn FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname',
    [PREFIX],
  );
}

describe('migrated template database', () => {
  let migrationsDir: string;
  const created: string[] = [];
  const builds: string[] = [];
  const options = () => ({ migrationsDir, prefix: PREFIX, log: (line: string) => builds.push(line) });

  function newUrl(label: string): string {
    const url = uniqueDatabaseUrl(label);
    created.push(url);
    return url;
  }

  beforeAll(async () => {
    migrationsDir = await mkdtemp(path.join(tmpdir(), 'svc-db-template-'));
    await cp(MIGRATIONS_DIR, migrationsDir, { recursive: true });
  });

  afterAll(async () => {
    await Promise.all(created.map((url) => dropDatabase(url)));
    const client = new Client(maintenanceConfig(adminUrl()));
    await client.connect();
    try {
      for (const { datname } of await ourTemplates()) {
        await client.query(`ALTER DATABASE "${datname}" WITH IS_TEMPLATE false`);
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    } finally {
      await client.end();
    }
    await rm(migrationsDir, { recursive: true, force: true });
  }, 60_000);

  it('hashes the migrations folder: same content, same hash; any change, another', async () => {
    const copy = await mkdtemp(path.join(tmpdir(), 'svc-db-hash-'));
    try {
      await cp(MIGRATIONS_DIR, copy, { recursive: true });
      const original = await migrationsHash(MIGRATIONS_DIR);
      expect(original).toMatch(/^[0-9a-f]{16}$/);
      expect(await migrationsHash(copy)).toBe(original);
      await mkdir(path.join(copy, '29990101000000_extra'));
      await writeFile(path.join(copy, '29990101000000_extra', 'migration.sql'), 'SELECT 1;\n');
      const added = await migrationsHash(copy);
      expect(added).not.toBe(original);
      await appendFile(path.join(copy, '29990101000000_extra', 'migration.sql'), '-- edited\n');
      expect(await migrationsHash(copy)).not.toBe(added);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it('builds one template for concurrent callers and copies every migration into each database', async () => {
    const urls = Array.from({ length: 4 }, (_, i) => newUrl(`tpl${i}`));
    await Promise.all(urls.map((url) => createMigratedDatabase(url, options())));
    expect(builds).toHaveLength(1);
    const [template] = await ourTemplates();
    expect(template).toEqual({
      datname: `${PREFIX}${await migrationsHash(migrationsDir)}`,
      datistemplate: true,
      datallowconn: false,
    });
    for (const url of urls) {
      // The copy lists every migration as applied, with the same checksums: nothing left to do.
      expect(await migrateDatabase(url, { migrationsDir })).toEqual({ applied: [] });
    }
    const tables = await query<{ n: number }>(
      urls[0] ?? '',
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema IN ('auth', 'registry', 'wallet')`,
    );
    expect(tables[0]?.n).toBeGreaterThan(0);
  }, 60_000);

  it('waits for a session on the template to leave instead of failing the copy', async () => {
    const template = await ensureMigratedTemplate(adminUrl(), options());
    const admin = new Client(maintenanceConfig(adminUrl()));
    await admin.connect();
    const url = new URL(adminUrl());
    url.pathname = `/${template}`;
    const visitor = new Client(poolConfig(url.toString()));
    try {
      await admin.query(`ALTER DATABASE "${template}" WITH ALLOW_CONNECTIONS true`);
      await visitor.connect();
      setTimeout(() => void visitor.end(), 500);
      await createMigratedDatabase(newUrl('busy'), options());
    } finally {
      await visitor.end().catch(() => undefined);
      await admin.query(`ALTER DATABASE "${template}" WITH ALLOW_CONNECTIONS false`);
      await admin.end();
    }
  }, 60_000);

  it('rebuilds after the migrations change and drops the stale template', async () => {
    const before = await ensureMigratedTemplate(adminUrl(), options());
    await mkdir(path.join(migrationsDir, '29990101000000_extra'));
    await writeFile(
      path.join(migrationsDir, '29990101000000_extra', 'migration.sql'),
      'CREATE TABLE wallet.template_extra (id int);\n',
    );
    const url = newUrl('changed');
    await createMigratedDatabase(url, options());
    const after = await ensureMigratedTemplate(adminUrl(), options());
    expect(after).not.toBe(before);
    expect((await ourTemplates()).map((row) => row.datname)).toEqual([after]);
    expect(await query(url, 'SELECT id FROM wallet.template_extra')).toEqual([]);
  }, 60_000);

  it('drops and rebuilds a template whose build never finished (no IS_TEMPLATE mark)', async () => {
    const name = await ensureMigratedTemplate(adminUrl(), options());
    const client = new Client(maintenanceConfig(adminUrl()));
    await client.connect();
    try {
      await client.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE false`);
      await client.query(`DROP DATABASE "${name}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name}"`);
    } finally {
      await client.end();
    }
    builds.length = 0;
    const url = newUrl('rebuilt');
    await createMigratedDatabase(url, options());
    expect(builds).toHaveLength(1);
    expect(await migrateDatabase(url, { migrationsDir })).toEqual({ applied: [] });
  }, 60_000);
});
