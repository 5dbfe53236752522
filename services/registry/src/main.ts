import { createBus, servicePresence } from '@svc/bus';
import { createPrismaClient } from '@svc/db';
import { createLogger } from '@svc/log';
import { type Closable, prismaCheck, redisCheck, runService, startHealthServer } from '@svc/service-kit';
import { seedCatalog } from './domain/seed';
import { loadRegistryEnv } from './env';
import { serveRegistryRpc } from './handlers/rpc';
import { MANIFESTS } from './manifests';

// Wiring only (docs/architecture.md "Processes"): env → logger → prisma → bus → seed → RPC → health.
const env = loadRegistryEnv();
const logger = createLogger({ service: 'registry', level: env.LOG_LEVEL });

runService({
  name: 'registry',
  logger,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  start: async () => {
    // Creation order; runService closes in reverse: HTTP, then the RPC responder, then the bus, then Prisma.
    const closables: Closable[] = [];
    const prisma = createPrismaClient(env.DATABASE_URL, {
      max: env.DATABASE_POOL_MAX,
      // pg_stat_activity names the holder; lost connections are logged, never fatal (@svc/db pool.ts).
      applicationName: 'registry',
      logger,
    });
    closables.push({ name: 'prisma', close: () => prisma.$disconnect() });
    const bus = createBus({
      redisUrl: env.REDIS_URL,
      prefix: env.BUS_PREFIX,
      logger,
      encryptionKeys: env.BUS_ENCRYPTION_KEY,
    });
    closables.push({ name: 'bus', close: () => bus.close() });

    // Before answering: the catalog served is the one in this build.
    await seedCatalog({ prisma, bus, logger, manifests: MANIFESTS });

    const rpc = serveRegistryRpc(bus, prisma);
    closables.push({ name: 'rpc', close: () => rpc.close() });

    const health = await startHealthServer({
      service: 'registry',
      port: env.HEALTH_PORT,
      checks: { redis: redisCheck(bus.redis), postgres: prismaCheck(prisma) },
      presence: servicePresence(bus, 'registry'),
      logger,
    });
    closables.push({ name: 'health', close: () => health.close() });
    return closables;
  },
});
