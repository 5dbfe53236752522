import { randomBytes } from 'node:crypto';
import { type Bus, createBus } from '@svc/bus';
import {
  createPrismaClient,
  dropDatabase,
  ensureDatabaseExists,
  migrateDatabase,
  type PrismaClient,
} from '@svc/db';
import { createLogger, type Logger } from '@svc/log';

/**
 * One integration suite's world: a fresh, migrated database on TEST_DATABASE_ADMIN_URL's server and
 * a unique bus prefix on TEST_REDIS_URL, both removed by `close()`.
 */
export interface RegistryTestEnv {
  databaseUrl: string;
  prisma: PrismaClient;
  bus: Bus;
  logger: Logger;
  close(): Promise<void>;
}

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export async function startTestEnv(suite: string): Promise<RegistryTestEnv> {
  const id = `${suite}_${randomBytes(4).toString('hex')}`;
  const databaseUrl = withDatabase(
    process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_URL,
    `test_registry_${id}`,
  );
  await ensureDatabaseExists(databaseUrl);
  await migrateDatabase(databaseUrl);
  const prisma = createPrismaClient(databaseUrl, { max: 4 });
  const logger = createLogger({ service: `registry-test-${suite}`, level: 'silent' });
  const prefix = `test-registry-${id}`;
  const bus = createBus({ redisUrl: process.env.TEST_REDIS_URL ?? DEFAULT_REDIS_URL, prefix, logger });

  const close = async () => {
    await deleteKeys(bus, `${prefix}:*`);
    await bus.close();
    await prisma.$disconnect();
    await dropDatabase(databaseUrl);
  };
  return { databaseUrl, prisma, bus, logger, close };
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** SCAN + DEL (never KEYS): only this suite's prefix, so parallel suites are untouched. */
async function deleteKeys(bus: Bus, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await bus.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    if (keys.length > 0) await bus.redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
