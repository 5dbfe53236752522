import { randomBytes } from 'node:crypto';
import { createPrismaClient, migrateDatabase, type PrismaClient } from '@svc/db';
import { createDatabase, dropDatabase, withDatabase } from '@svc/devstack';

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
 * `label` (lowercase letters, digits, _) makes leftovers recognisable; a random suffix keeps
 * parallel suites apart.
 */
export async function createTestDatabase(label = 't'): Promise<TestDatabase> {
  const adminUrl = testAdminUrl();
  const name = `${label}_${randomBytes(6).toString('hex')}`;
  const url = withDatabase(adminUrl, name);
  await createDatabase(adminUrl, name);
  try {
    await migrateDatabase(url);
  } catch (err) {
    await dropDatabase(adminUrl, name).catch(() => undefined);
    throw err;
  }
  let prisma: PrismaClient | undefined;
  return {
    name,
    url,
    get prisma() {
      prisma ??= createPrismaClient(url, { max: 4 });
      return prisma;
    },
    async drop() {
      await prisma?.$disconnect();
      await dropDatabase(adminUrl, name);
    },
  };
}
