// Wallet process: answers `rpc.wallet` (balance, issueQuote, ping) from the append-only ledger and
// the quotes it owns (schema `wallet`). Wiring only; the logic is in src/domain/.
import { createBus, serveRpc } from '@svc/bus';
import { createPrismaClient } from '@svc/db';
import { createLogger } from '@svc/log';
import { prismaCheck, redisCheck, runService, startHealthServer } from '@svc/service-kit';
import { loadWalletEnv } from './env';
import { walletHandlers } from './handlers/rpc';

const SERVICE = 'wallet';
const env = loadWalletEnv();
const logger = createLogger({ service: SERVICE, level: env.LOG_LEVEL });

runService({
  name: SERVICE,
  logger,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  // Creation order; closed in reverse: health server, RPC responder, bus, Prisma.
  start: async () => {
    const prisma = createPrismaClient(env.DATABASE_URL, { max: env.DATABASE_POOL_MAX });
    const bus = createBus({ redisUrl: env.REDIS_URL, prefix: env.BUS_PREFIX, logger });
    const rpc = serveRpc(bus, SERVICE, walletHandlers({ prisma, quoteTtlMs: env.QUOTE_TTL_MS }));
    const health = await startHealthServer({
      service: SERVICE,
      port: env.HEALTH_PORT,
      checks: { redis: redisCheck(bus.redis), postgres: prismaCheck(prisma) },
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
