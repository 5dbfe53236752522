// Uploads process: owns upload sessions, uploads and artifacts (schema `uploads`) and their bytes
// in object storage (docs/decisions.md U1–U8, A1–A5, "Retention"). Answers `rpc.uploads`
// (createSession, getUpload, resolveFiles, registerArtifacts, listArtifacts), serves the internal
// HTTP server the gateway streams upload bodies and artifact downloads through (DATA_PORT), and runs
// the repeatable `uploads.cleanup` job.
// Wiring only (defineService: env → logger → prisma → bus → store → start → health server): RPC →
// cleanup scheduler/worker → internal HTTP server → catalog events.
import { serveRpc, serviceClient, subscribeEvents } from '@svc/bus';
import { platformCatalog } from '@svc/contracts';
import { type Closable, createCapabilityDirectory, defineService, listenHttp } from '@svc/service-kit';
import type { UploadsDeps } from './domain/settings';
import { loadUploadsEnv } from './env';
import { startCleanup } from './handlers/cleanup-job';
import { createInternalApp } from './handlers/internal-app';
import { uploadsHandlers } from './handlers/rpc';

const SERVICE = 'uploads';

defineService({
  name: SERVICE,
  env: loadUploadsEnv,
  needs: { database: true, bus: { catalog: platformCatalog }, objectStore: true },
  // Creation order; closed in reverse after the health server: catalog subscription, internal HTTP
  // server (PUTs in flight finish or are cut, keeping nothing), cleanup worker, RPC responder, then
  // the bus and Prisma.
  start: async ({ env, logger, prisma, bus, store }) => {
    const closables: Closable[] = [];
    const registry = serviceClient(bus, 'registry', { timeoutMs: env.RPC_TIMEOUT_MS });
    const directory = createCapabilityDirectory({
      fetch: async (slug) => (await registry.describe({ slug })).capability,
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
    return closables;
  },
});
