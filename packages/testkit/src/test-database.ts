import { randomBytes } from 'node:crypto';
import {
  createMigratedDatabase,
  createPrismaClient,
  type PrismaClient,
  type StatementListener,
} from '@svc/db';
import { dropDatabase, withDatabase } from '@svc/devstack';

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The server integration suites use (set by jest/integration-setup.ts). */
export function testAdminUrl(): string {
  return process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_URL;
}

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  /** A client on the database, made on first use and closed by `drop()`. */
  readonly prisma: PrismaClient;
  /** Disconnects the client and drops the database (WITH (FORCE)). */
  drop(): Promise<void>;
}

/**
 * A fresh database on the test server, with every migration applied: the real schema, no mocks.
 * It is a copy of the migrated template database (@svc/db `createMigratedDatabase`; built once per
 * server and migrations folder, usually by jest/integration-setup.ts), not a migration run.
 * `label` (lowercase letters, digits, _) makes leftovers recognisable; a random suffix keeps
 * parallel suites apart. `onStatement` is told about every statement its client sends
 * (StatementCounter).
 */
export async function createTestDatabase(
  label = 't',
  options: { onStatement?: StatementListener } = {},
): Promise<TestDatabase> {
  const adminUrl = testAdminUrl();
  const name = `${label}_${randomBytes(6).toString('hex')}`;
  const url = withDatabase(adminUrl, name);
  // Same rule as dropDatabase's: the name is spliced into SQL as an identifier.
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`invalid database name ${JSON.stringify(name)}`);
  await createMigratedDatabase(url);
  let prisma: PrismaClient | undefined;
  return {
    name,
    url,
    get prisma() {
      prisma ??= createPrismaClient(url, { max: 4, ...options });
      return prisma;
    },
    async drop() {
      await prisma?.$disconnect();
      await dropDatabase(adminUrl, name);
    },
  };
}
