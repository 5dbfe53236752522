import type { Bus } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { createLogger, type Logger } from '@svc/log';
import { createTestBus, createTestDatabase } from '@svc/testkit';

/**
 * One integration suite's world: a fresh, migrated database on TEST_DATABASE_ADMIN_URL's server and
 * a unique bus prefix on TEST_REDIS_URL, both removed by `close()`.
 */
export interface RegistryTestEnv {
  databaseUrl: string;
  prisma: PrismaClient;
  bus: Bus<PlatformCatalog>;
  logger: Logger;
  close(): Promise<void>;
}

export async function startTestEnv(suite: string): Promise<RegistryTestEnv> {
  const database = await createTestDatabase(`test_registry_${suite}`);
  const testBus = createTestBus('test-registry-');
  const logger = createLogger({ service: `registry-test-${suite}`, level: 'silent' });
  const close = async () => {
    await testBus.close();
    await database.drop();
  };
  return { databaseUrl: database.url, prisma: database.prisma, bus: testBus.bus, logger, close };
}
