// Uploads process: owns upload sessions, uploads and artifacts (schema `uploads`) and their bytes
// in object storage (docs/decisions.md U1–U8, A1–A5, "Retention"). Answers `rpc.uploads`
// (createSession, getUpload, resolveFiles, registerArtifacts, listArtifacts), serves the internal
// HTTP server the gateway streams upload bodies and artifact downloads through (DATA_PORT), and runs
// the repeatable `uploads.cleanup` job.
// Wiring only: env → logger → prisma → bus → store → RPC → internal HTTP server → cleanup
// scheduler/worker → catalog events → health server.
import {
  createBus,
  createCapabilityDirectory,
  createRpcClient,
  serveRpc,
  servicePresence,
  subscribeEvents,
} from '@svc/bus';
import { createPrismaClient } from '@svc/db';
import { createLogger } from '@svc/log';
import {
  type Closable,
  listenHttp,
  prismaCheck,
  redisCheck,
  runService,
  startHealthServer,
} from '@svc/service-kit';
import { objectStoreFromEnv } from '@svc/storage';
import type { UploadsDeps } from './domain/settings';
import { loadUploadsEnv } from './env';
import { startCleanup } from './handlers/cleanup-job';
import { createInternalApp } from './handlers/internal-app';
import { uploadsHandlers } from './handlers/rpc';

const SERVICE = 'uploads';
const env = loadUploadsEnv();
const logger = createLogger({ service: SERVICE, level: env.LOG_LEVEL });

runService({
  name: SERVICE,
  logger,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  // Creation order; closed in reverse: health server, catalog subscription, internal HTTP server (PUTs
  // in flight finish or are cut, keeping nothing), cleanup worker, RPC responder, bus, Prisma.
  start: async () => {
    const closables: Closable[] = [];
    const prisma = createPrismaClient(env.DATABASE_URL, {
      max: env.DATABASE_POOL_MAX,
      // pg_stat_activity names the holder; lost connections are logged, never fatal (@svc/db pool.ts).
      applicationName: SERVICE,
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
    const store = objectStoreFromEnv(env);
    const registry = createRpcClient(bus, 'registry', { timeoutMs: env.RPC_TIMEOUT_MS });
    const directory = createCapabilityDirectory({
      fetch: async (slug) => (await registry.call('describe', { slug })).capability,
      ttlMs: env.CAPABILITY_CACHE_TTL_MS,
    });
    const deps: UploadsDeps = {
      prisma,
      store,
      directory,
      logger,
      settings: {
        sessionTtlMs: env.UPLOAD_SESSION_TTL_MS,
        retentionMs: env.UPLOAD_RETENTION_MS,
        putTimeoutMs: env.UPLOAD_PUT_TIMEOUT_MS,
        idleTimeoutMs: env.UPLOAD_IDLE_TIMEOUT_MS,
        linkSecret: env.ARTIFACT_LINK_SECRET,
        linkTtlMs: env.ARTIFACT_LINK_TTL_MS,
        ...(env.ARTIFACT_RETENTION_DAYS === undefined
          ? {}
          : { artifactRetentionDays: env.ARTIFACT_RETENTION_DAYS }),
      },
    };

    const rpc = serveRpc(bus, SERVICE, uploadsHandlers(deps));
    closables.push({ name: 'rpc', close: () => rpc.close() });
    closables.push(await startCleanup(bus, deps, env.UPLOAD_CLEANUP_INTERVAL_MS));
    // Half the shutdown budget for uploads in flight; the rest closes the workers and connections.
    const internal = await listenHttp(createInternalApp(deps, logger), {
      name: 'internal http server',
      port: env.DATA_PORT,
      graceMs: Math.floor(env.SHUTDOWN_TIMEOUT_MS / 2),
      // A large upload on a slow link must not be cut before its claim turns stale.
      requestTimeoutMs: env.UPLOAD_PUT_TIMEOUT_MS,
    });
    logger.info({ port: internal.port, server: 'data' }, 'listening');
    closables.push(internal);
    // A changed catalog may change a capability's file requirements: describe again.
    const catalogEvents = subscribeEvents(bus, { 'catalog.changed': () => directory.clear() });
    closables.push({ name: 'catalog events', close: () => catalogEvents.close() });

    const health = await startHealthServer({
      service: SERVICE,
      port: env.HEALTH_PORT,
      checks: { redis: redisCheck(bus.redis), postgres: prismaCheck(prisma), storage: () => store.check() },
      presence: servicePresence(bus, SERVICE),
      logger,
    });
    closables.push({ name: 'health server', close: () => health.close() });
    return closables;
  },
});
