// `migrate:new`: what `prisma migrate dev --create-only` does, on the WASM engine. The engine
// replays prisma/migrations into a throw-away shadow database (created and dropped on the server
// `databaseUrl` points at; that database itself is not touched), compares the result with
// schema.prisma and returns the SQL that closes the gap.
//
// It goes through the engine's `diff` (migrations → schema), i.e. `prisma migrate diff
// --from-migrations --to-schema --script`: the WASM build's `createMigration` cannot create a
// PostgreSQL shadow database (it is not handed the adapter factory: "PostgreSQL shadow DB must be
// provided through an external factory"), `diff` is. We then write the directory the way
// `createMigration` would have.

import { withSchemaEngine } from './engine-session';
import {
  MIGRATIONS_DIR,
  readMigrationsList,
  readSchemaFile,
  SCHEMA_PATH,
  writeMigration,
} from './migrations-dir';

export interface CreateMigrationOptions {
  /** Server to create the shadow database on. */
  databaseUrl: string;
  /** Write a migration even when the schema has not changed (for hand-written SQL). */
  empty?: boolean;
  schemaPath?: string;
  migrationsDir?: string;
}

export interface CreatedMigration {
  /** `<timestamp>_<name>`, or null when the schema matches the migrations (nothing written). */
  name: string | null;
  dir: string | null;
  script: string | null;
}

const NAME_PATTERN = /^[a-z0-9_]+$/;

export async function createMigration(
  name: string,
  options: CreateMigrationOptions,
): Promise<CreatedMigration> {
  if (!NAME_PATTERN.test(name)) {
    throw new Error(`migration name must be lower-case letters, digits and underscores (got "${name}")`);
  }
  const migrationsDir = options.migrationsDir ?? MIGRATIONS_DIR;
  const schema = await readSchemaFile(options.schemaPath ?? SCHEMA_PATH);
  const migrationsList = await readMigrationsList(migrationsDir);
  const result = await withSchemaEngine(
    options.databaseUrl,
    (engine) =>
      engine.diff({
        // The first migration has no history (nor lock file) to replay: diff from nothing.
        from:
          migrationsList.migrationDirectories.length === 0
            ? { tag: 'empty' }
            : { tag: 'migrations', ...migrationsList },
        to: { tag: 'schemaDatamodel', files: [schema] },
        script: true,
        // exitCode 2 = the diff is not empty (same contract as `prisma migrate diff --exit-code`).
        exitCode: true,
        filters: { externalTables: [], externalEnums: [] },
      }),
    { datamodels: [[schema.path, schema.content]] },
  );
  const changed = result.exitCode === 2;
  if (!changed && !options.empty) return { name: null, dir: null, script: null };
  const script = changed && result.stdout ? result.stdout : '-- This is an empty migration.\n';
  const fullName = `${migrationTimestamp(new Date())}_${name}`;
  const dir = await writeMigration(migrationsDir, {
    name: fullName,
    script,
    extension: 'sql',
    connectorType: 'postgresql',
  });
  return { name: fullName, dir, script };
}

/** `YYYYMMDDHHMMSS` in UTC, the prefix Prisma gives migration directories. */
export function migrationTimestamp(at: Date): string {
  return at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}
