import { ApiKeyStore, KeyUseRecorder } from '@svc/auth';
import {
  NESTED_CALL_MARGIN_MS,
  publishEvent,
  readServiceReadiness,
  serveRpc,
  serviceClient,
  subscribeEvents,
} from '@svc/bus';
import {
  API_VERSION,
  CONTRACT_VERSION_HEADER,
  callsOtherServices,
  platformCatalog,
  RPC_SERVICES,
  type RpcService,
} from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
import { type Closable, defineService, listenHttp, readinessReporter } from '@svc/service-kit';
import { createApp, SERVICE_NAME } from './app';
import { CatalogCache } from './domain/catalog-cache';
import { RunWaiter } from './domain/run-waiter';
import { loadGatewayEnv } from './env';
import { keysHandlers } from './keys/keys-rpc';
import { createRequestMetrics } from './metrics';
import { VerifiedKeyCache } from './middleware/verified-key-cache';
import { BudgetPolicies } from './rate-limit/budgets';
import { RedisBudgetLedger } from './rate-limit/limiter';
import { GatewayRateLimiter } from './rate-limit/rate-limiter';

// Wiring only (docs/architecture.md "Processes"; defineService: env → logger → prisma (auth) → bus →
// start): RPC clients → catalog cache + run waiter, one subscription for catalog.changed and
// run.finished → health server (/metrics) → public HTTP.
// ms: the longest a request may take to arrive in full. Node's default (300 s) would cut a 256 MiB
// upload PUT on a link slower than ~7 Mbit/s; this matches the uploads service's UPLOAD_PUT_TIMEOUT_MS
// default (after which it treats a PUT as stale).
const REQUEST_TIMEOUT_MS = 600_000;

/**
 * What the public /readyz reports on: every service the gateway calls, and the workers (`keys` is
 * the gateway's own RPC service, answered by this process for the dashboard).
 */
const BACKING_SERVICES = [...RPC_SERVICES.filter((service) => service !== 'keys'), 'worker'];

/**
 * ms the gateway waits for a vault call that reads or writes a document (an extraction, a fill): the
 * vault asks the uploads service for the upload, reads up to 10 MB from object storage, parses or
 * fills a PDF and registers the result, which takes far longer than RPC_TIMEOUT_MS allows a plain
 * call. Under the 60 s idle timeout common in proxies and load balancers, so the answer arrives first.
 */
const VAULT_DOCUMENT_CALL_MS = 45_000;

/** Resolves when `promise` does or after `ms`, whichever is first; true if it settled in time. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

defineService({
  name: SERVICE_NAME,
  env: loadGatewayEnv,
  needs: { database: true, bus: { catalog: platformCatalog } },
  // Not announced on the bus: the gateway reads the others' presence, nobody reads its own.
  announce: false,
  start: async ({ env, logger, prisma, bus, checks, startHealthServer }) => {
    // Creation order; closed in reverse: the run waiter first (waiting crt requests answer 202),
    // public HTTP (stop accepting, finish in-flight), then the health server, the event
    // subscription, and after them the bus and Prisma.
    const closables: Closable[] = [];

    // Typed clients of the services, one method per catalog method (@svc/bus serviceClient): the
    // routes' ports are Picks of them (domain/*, ports.ts).
    // A service that calls others (the orchestrator, the uploads service, the vault) is waited for
    // NESTED_CALL_MARGIN_MS longer, so that when the wallet (say) is down the client hears the
    // orchestrator's 503 naming the wallet, not a timeout that names the orchestrator (issue 15
    // finding 3; NESTED_RPC_SERVICES).
    const timeoutMs = (service: RpcService) =>
      env.RPC_TIMEOUT_MS + (callsOtherServices(service) ? NESTED_CALL_MARGIN_MS : 0);
    const registry = serviceClient(bus, 'registry', { timeoutMs: timeoutMs('registry') });
    const wallet = serviceClient(bus, 'wallet', { timeoutMs: timeoutMs('wallet') });
    const orchestrator = serviceClient(bus, 'orchestrator', { timeoutMs: timeoutMs('orchestrator') });
    const uploads = serviceClient(bus, 'uploads', { timeoutMs: timeoutMs('uploads') });
    // The vault's calls that read or write a document wait longer still.
    const documentCallMs = Math.max(timeoutMs('vault'), VAULT_DOCUMENT_CALL_MS);
    const vault = serviceClient(bus, 'vault', {
      timeoutMs: timeoutMs('vault'),
      methodTimeoutsMs: { createExtraction: documentCallMs, fillDocument: documentCallMs },
    });
    const catalog = new CatalogCache(registry, {
      ttlMs: env.CATALOG_CACHE_TTL_MS,
      isNotFound: (err) => err instanceof NotFoundError,
    });
    const runWaiter = new RunWaiter({
      getRun: (clientId, runId) => orchestrator.getRun({ client_id: clientId, run_id: runId }),
      pollIntervalMs: env.RUN_POLL_INTERVAL_MS,
      onPollError: (err, runId) => logger.warn({ err, run_id: runId }, 'run poll failed; retrying'),
    });
    // API keys verified once per API_KEY_CACHE_TTL_MS (decisions: issue 15 item 5); last_used_at is
    // written in the background, flushed on close while Prisma is still open.
    const keyStore = new ApiKeyStore(prisma);
    const keyUse = new KeyUseRecorder({
      write: (ids) => keyStore.recordUse(ids),
      onError: (err, count) => logger.warn({ err, keys: count }, 'API key last_used_at not recorded'),
    });
    const keys = new VerifiedKeyCache({
      store: keyStore,
      noteUse: (id, lastUsedAt) => keyUse.note(id, lastUsedAt),
      ttlMs: env.API_KEY_CACHE_TTL_MS,
    });
    // One subscriber connection for every event (each subscribeEvents call opens its own).
    const subscription = subscribeEvents(bus, {
      'apikey.revoked': (event) => {
        keys.evictAll();
        logger.info({ key_id: event.key_id }, 'API key revoked: verified keys dropped');
      },
      'catalog.changed': (event) => {
        catalog.clear();
        logger.info(
          { version: event.version, changed: event.changed_slugs.length },
          'catalog changed: cache cleared',
        );
      },
      'run.finished': (event) => runWaiter.notify(event),
    });
    closables.push({ name: 'event subscription', close: () => subscription.close() });
    // Do not hold the start on it: with Redis down the gateway still serves /healthz and answers 503
    // elsewhere; a missed event only costs staleness up to the cache TTL (decisions.md P2), and run
    // waiters fall back on their getRun polls.
    if (!(await settledWithin(subscription.waitUntilReady(), env.RPC_TIMEOUT_MS))) {
      logger.warn('event subscription not confirmed yet; relying on the cache TTL and run polls meanwhile');
    }

    // The dashboard process's view of the `auth` schema (issue 24): a client's name and keys.
    const keysRpc = serveRpc(
      bus,
      'keys',
      keysHandlers({
        clientName: async (id) =>
          (await prisma.client.findUnique({ where: { id }, select: { name: true } }))?.name ?? null,
        store: keyStore,
        keyRevoked: (keyId) => publishEvent(bus, 'apikey.revoked', { key_id: keyId }),
        logger,
      }),
    );
    closables.push({ name: 'keys rpc', close: () => keysRpc.close() });

    // Started here, not after start(): it closes after the public HTTP server drains.
    const health = await startHealthServer();
    closables.push(health);
    closables.push({ name: 'API key use recorder', close: () => keyUse.close() });

    const app = createApp({
      logger,
      keys,
      catalog,
      wallet,
      orchestrator,
      uploads,
      vault,
      // Bytes go over HTTP, not the bus; a connection gets the same patience as an RPC answer.
      uploadsData: { baseUrl: env.UPLOADS_URL, connectTimeoutMs: env.RPC_TIMEOUT_MS },
      publicBaseUrl: env.PUBLIC_BASE_URL,
      runWaiter,
      crtRunWaitMs: env.CRT_RUN_WAIT_MS,
      // Ready on its own checks; the services behind it are reported, not required (issue 13: one
      // service down must not take the gateway out of a load balancer's rotation).
      readiness: readinessReporter(SERVICE_NAME, checks, {
        backingServices: () => readServiceReadiness(bus, BACKING_SERVICES),
      }),
      observeRequest: createRequestMetrics(health.registry),
      jsonBodyLimit: env.JSON_BODY_LIMIT,
      bodyRate: { graceMs: env.BODY_GRACE_MS, minBytesPerSecond: env.BODY_MIN_BYTES_PER_SECOND },
      trustProxy: env.TRUST_PROXY,
      mcpAllowedHosts: env.MCP_ALLOWED_HOSTS,
      mcpAllowedOrigins: env.MCP_ALLOWED_ORIGINS,
      mcpRunWaitMs: env.MCP_RUN_WAIT_MS,
      // The dashboard process (issue 24): /dashboard is proxied to it; a connection gets the same
      // patience as an RPC answer, a page as long as its own RPCs take.
      dashboard: { baseUrl: env.DASHBOARD_URL, connectTimeoutMs: env.RPC_TIMEOUT_MS, name: 'dashboard' },
      // Budgets counted in Redis on the bus's producer connection, shared by every gateway process.
      rateLimiter: new GatewayRateLimiter(
        new RedisBudgetLedger({ redis: bus.redis, prefix: env.BUS_PREFIX, logger }),
        new BudgetPolicies(env.RATE_LIMIT_MULTIPLIER),
      ),
    });
    // Half the shutdown budget for in-flight requests; the rest for the closables after it.
    const http = await listenHttp(app, {
      port: env.PORT,
      graceMs: Math.floor(env.SHUTDOWN_TIMEOUT_MS / 2),
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      // Node's own refusals (bad framing, a 100 KB URL, a timeout) carry the version too (spec §9.5).
      clientErrorHeaders: { [CONTRACT_VERSION_HEADER]: API_VERSION },
    });
    closables.push(http);
    // Closed first (closables close in reverse): crt requests still waiting answer 202 with a
    // Location at once instead of holding the HTTP drain for up to CRT_RUN_WAIT_MS.
    closables.push({ name: 'run waiter', close: async () => runWaiter.close() });
    logger.info({ port: http.port }, 'listening');
    return closables;
  },
});
