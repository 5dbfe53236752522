// Wallet process: answers `rpc.wallet` (balance, quotes, holds, run ledgers, usage statements,
// spend diagnostics, open holds, ping) from the append-only ledger and the quotes it owns (schema
// `wallet`), and consumes `jobs.wallet.settle` (capture or release a paid run's hold). Wiring only;
// the logic is in src/domain/.
import { createBus, processJobs, serveRpc, servicePresence } from '@svc/bus';
import { createPrismaClient } from '@svc/db';
import { createLogger } from '@svc/log';
import { prismaCheck, redisCheck, runService, startHealthServer } from '@svc/service-kit';
import { loadWalletEnv } from './env';
import { startQuoteCleanup } from './handlers/quote-cleanup-timer';
import { walletHandlers } from './handlers/rpc';
import { settleJobHandler } from './handlers/settle-job';

const SERVICE = 'wallet';
const env = loadWalletEnv();
const logger = createLogger({ service: SERVICE, level: env.LOG_LEVEL });
// Settle jobs handled at once: each is one short transaction (I/O-bound); jobs of one client queue
// on its wallet lock anyway. Kept below the pool (DATABASE_POOL_MAX) so RPCs still get connections.
const SETTLE_CONCURRENCY = 4;

runService({
  name: SERVICE,
  logger,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  // Creation order; closed in reverse: health server, RPC responder, settle consumer (finishes its
  // running jobs), bus, Prisma.
  start: async () => {
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
    const settle = processJobs(bus, 'wallet.settle', settleJobHandler({ prisma, logger }), {
      concurrency: SETTLE_CONCURRENCY,
    });
    const rpc = serveRpc(bus, SERVICE, walletHandlers({ prisma, quoteTtlMs: env.QUOTE_TTL_MS }));
    const quoteCleanup = startQuoteCleanup({
      prisma,
      logger,
      everyMs: env.QUOTE_CLEANUP_INTERVAL_MS,
      graceMs: env.QUOTE_CLEANUP_GRACE_MS,
    });
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
      { name: 'settle jobs', close: () => settle.close() },
      quoteCleanup,
      { name: 'rpc', close: () => rpc.close() },
      { name: 'health server', close: () => health.close() },
    ];
  },
});
