import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMigration, MIGRATIONS_DIR, SCHEMA_PATH } from '../src/index';
import { migrationTimestamp } from '../src/migrate/create-migration';
import { adminUrl } from './test-database';

describe('createMigration (migrate:new)', () => {
  let work: string;
  let migrationsDir: string;

  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'svc-db-migrate-new-'));
    migrationsDir = path.join(work, 'migrations');
    await cp(MIGRATIONS_DIR, migrationsDir, { recursive: true });
  });

  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('finds nothing to do for the committed schema (the hand-written generated column is not undone)', async () => {
    const before = await readdir(migrationsDir);
    const created = await createMigration('noop', { databaseUrl: adminUrl(), migrationsDir });
    expect(created).toEqual({ name: null, dir: null, script: null });
    expect(await readdir(migrationsDir)).toEqual(before);
  });

  it('writes the SQL for a schema change, leaving search_vector alone', async () => {
    const schema = (await readFile(SCHEMA_PATH, 'utf8')).replace(
      '  note         String?',
      '  note         String?\n  source       String?          @map("source")',
    );
    expect(schema).toContain('@map("source")');
    const schemaPath = path.join(work, 'schema.prisma');
    await writeFile(schemaPath, schema);

    const created = await createMigration('add_source', {
      databaseUrl: adminUrl(),
      migrationsDir,
      schemaPath,
    });
    expect(created.name).toMatch(/^\d{14}_add_source$/);
    expect(created.script).toContain('ALTER TABLE "wallet"."ledger_entries" ADD COLUMN     "source" TEXT;');
    expect(created.script).not.toContain('search_vector');
    const written = await readFile(path.join(migrationsDir, `${created.name}`, 'migration.sql'), 'utf8');
    expect(written).toBe(created.script);
    expect(await readFile(path.join(migrationsDir, 'migration_lock.toml'), 'utf8')).toContain(
      'provider = "postgresql"',
    );
  });

  it('writes an empty migration on request and rejects bad names', async () => {
    const created = await createMigration('hand_written', {
      databaseUrl: adminUrl(),
      migrationsDir,
      empty: true,
    });
    expect(created.script).toBe('-- This is an empty migration.\n');
    await expect(createMigration('Bad Name', { databaseUrl: adminUrl(), migrationsDir })).rejects.toThrow(
      /lower-case/,
    );
  });

  it('names directories with a UTC timestamp', () => {
    expect(migrationTimestamp(new Date('2026-03-04T05:06:07.891Z'))).toBe('20260304050607');
  });
});
