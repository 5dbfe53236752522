// Vault process: for now a `rpc.vault` responder (ping) with health and readiness; vault fields,
// extractions and document filling arrive with their issue (docs/architecture.md).
// Wiring only: env → logger → prisma → bus → RPC → health server → runService.
import { createBus, serveRpc, servicePresence } from '@svc/bus';
import { createPrismaClient } from '@svc/db';
import { createLogger } from '@svc/log';
import { prismaCheck, redisCheck, runService, startHealthServer } from '@svc/service-kit';
import { loadVaultEnv } from './env';
import { vaultHandlers } from './handlers/rpc';

const SERVICE = 'vault';
const env = loadVaultEnv();
const logger = createLogger({ service: SERVICE, level: env.LOG_LEVEL });

runService({
  name: SERVICE,
  logger,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  // Creation order; closed in reverse: health server, RPC responder, bus, Prisma.
  start: async () => {
    // PostgreSQL is a readiness dependency already: the service's own schema comes with its issue.
    const prisma = createPrismaClient(env.DATABASE_URL, {
      max: env.DATABASE_POOL_MAX,
      // pg_stat_activity names the holder; lost connections are logged, never fatal (@svc/db pool.ts).
      applicationName: SERVICE,
      logger,
    });
    const bus = createBus({
      redisUrl: env.REDIS_URL,
      prefix: env.BUS_PREFIX,
      logger,
      encryptionKeys: env.BUS_ENCRYPTION_KEY,
    });
    const rpc = serveRpc(bus, SERVICE, vaultHandlers());
    const health = await startHealthServer({
      service: SERVICE,
      port: env.HEALTH_PORT,
      checks: { redis: redisCheck(bus.redis), postgres: prismaCheck(prisma) },
      presence: servicePresence(bus, SERVICE),
      logger,
    });
    return [
      { name: 'prisma', close: () => prisma.$disconnect() },
      { name: 'bus', close: () => bus.close() },
      { name: 'rpc', close: () => rpc.close() },
      { name: 'health server', close: () => health.close() },
    ];
  },
});
