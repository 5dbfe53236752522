import { hkdfSync } from 'node:crypto';
import { AccountStore, ApiKeyStore, KeyUseRecorder, SessionStore, warmPasswordHashing } from '@svc/auth';
import { createRpcClient, publishEvent, readServiceReadiness, subscribeEvents } from '@svc/bus';
import { API_VERSION, CONTRACT_VERSION_HEADER, platformCatalog, RPC_SERVICES } from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
import { type Closable, defineService, listenHttp, readinessReporter } from '@svc/service-kit';
import { createApp, SERVICE_NAME } from './app';
import { oneTimeNotes, redisNoteStorage } from './dashboard/one-time-notes';
import { redisSignInThrottle, signInGate } from './dashboard/sign-in/throttle';
import { CatalogCache } from './domain/catalog-cache';
import type { RunOrchestrator } from './domain/run-orchestrator';
import { RunWaiter } from './domain/run-waiter';
import type { UploadsService } from './domain/uploads-service';
import type { VaultService } from './domain/vault-service';
import { loadGatewayEnv } from './env';
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

/** What the public /readyz reports on: every service the gateway calls, and the workers. */
const BACKING_SERVICES = [...RPC_SERVICES, 'worker'];

/** ms the gateway adds to RPC_TIMEOUT_MS for services that call others themselves (see start()). */
const NESTED_CALL_MARGIN_MS = 1_000;

/**
 * ms the gateway waits for a vault call that reads or writes a document (an extraction, a fill): the
 * vault asks the uploads service for the upload, reads up to 10 MB from object storage, parses or
 * fills a PDF and registers the result, which takes far longer than RPC_TIMEOUT_MS allows a plain
 * call. Under the 60 s idle timeout common in proxies and load balancers, so the answer arrives first.
 */
const VAULT_DOCUMENT_CALL_MS = 45_000;

/** The bus key that seals new messages (the first of BUS_ENCRYPTION_KEY): the sign-in throttle's HMAC key source. */
function signInKeySource(keys: readonly Uint8Array[]): Uint8Array {
  const current = keys[0];
  if (current === undefined) throw new Error('BUS_ENCRYPTION_KEY holds no key');
  return current;
}

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

    const registry = createRpcClient(bus, 'registry', { timeoutMs: env.RPC_TIMEOUT_MS });
    const wallet = createRpcClient(bus, 'wallet', { timeoutMs: env.RPC_TIMEOUT_MS });
    // The orchestrator and the upload service call other services themselves, each call bounded by
    // the same RPC_TIMEOUT_MS: the gateway waits a little longer for them, so that when the wallet
    // (say) is down the client hears the orchestrator's 503 naming the wallet, not a timeout that
    // names the orchestrator (issue 15 finding 3).
    const nestedTimeoutMs = env.RPC_TIMEOUT_MS + NESTED_CALL_MARGIN_MS;
    const orchestratorRpc = createRpcClient(bus, 'orchestrator', { timeoutMs: nestedTimeoutMs });
    const uploadsRpc = createRpcClient(bus, 'uploads', { timeoutMs: nestedTimeoutMs });
    const uploads: UploadsService = {
      createSession: (request) => uploadsRpc.call('createSession', request),
      getUpload: (clientId, uploadId) =>
        uploadsRpc.call('getUpload', { client_id: clientId, upload_id: uploadId }),
      listArtifacts: (request) => uploadsRpc.call('listArtifacts', request),
    };
    // The vault calls the uploads service for uploads and artifacts: nested, like the two above.
    const vaultRpc = createRpcClient(bus, 'vault', { timeoutMs: nestedTimeoutMs });
    const vaultDocumentRpc = createRpcClient(bus, 'vault', {
      timeoutMs: Math.max(nestedTimeoutMs, VAULT_DOCUMENT_CALL_MS),
    });
    const vault: VaultService = {
      profile: (clientId) => vaultRpc.call('profile', { client_id: clientId }),
      listFields: (clientId) => vaultRpc.call('listFields', { client_id: clientId }),
      saveField: (request) => vaultRpc.call('saveField', request),
      deleteField: (request) => vaultRpc.call('deleteField', request),
      createExtraction: (request) => vaultDocumentRpc.call('createExtraction', request),
      listExtractions: (request) => vaultRpc.call('listExtractions', request),
      getExtraction: (request) => vaultRpc.call('getExtraction', request),
      reviewExtraction: (request) => vaultRpc.call('reviewExtraction', request),
      fillDocument: (request) => vaultDocumentRpc.call('fillDocument', request),
      listDocuments: (request) => vaultRpc.call('listDocuments', request),
      getDocument: (request) => vaultRpc.call('getDocument', request),
      audit: (request) => vaultRpc.call('audit', request),
    };
    const orchestrator: RunOrchestrator = {
      startCrtRun: (request) => orchestratorRpc.call('startCrtRun', request),
      getRun: (clientId, runId) => orchestratorRpc.call('getRun', { client_id: clientId, run_id: runId }),
      quote: (request) => orchestratorRpc.call('quote', request),
      startRun: (request) => orchestratorRpc.call('startRun', request),
      cancelRun: (clientId, runId) =>
        orchestratorRpc.call('cancelRun', { client_id: clientId, run_id: runId }),
      receipt: (clientId, runId) => orchestratorRpc.call('receipt', { client_id: clientId, run_id: runId }),
      listRuns: (clientId, query) => orchestratorRpc.call('listRuns', { ...query, client_id: clientId }),
      runCounts: (clientId, options = {}) =>
        orchestratorRpc.call('runCounts', { client_id: clientId, created_from: options.createdFrom }),
      runTimeline: (clientId, runId) =>
        orchestratorRpc.call('runTimeline', { client_id: clientId, run_id: runId }),
    };
    const catalog = new CatalogCache(
      {
        search: (query) => registry.call('search', query),
        describe: (slug) => registry.call('describe', { slug }),
      },
      { ttlMs: env.CATALOG_CACHE_TTL_MS, isNotFound: (err) => err instanceof NotFoundError },
    );
    const runWaiter = new RunWaiter({
      getRun: orchestrator.getRun,
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

    // The dashboard's first unknown-email sign-in must cost what the others do (argon2 dummy hash).
    await warmPasswordHashing();

    // Started here, not after start(): it closes after the public HTTP server drains.
    const health = await startHealthServer();
    closables.push(health);
    closables.push({ name: 'API key use recorder', close: () => keyUse.close() });

    const app = createApp({
      logger,
      keys,
      catalog,
      wallet: {
        balance: (clientId) => wallet.call('balance', { client_id: clientId }),
        usageStatement: (request) => wallet.call('usageStatement', request),
        spendDiagnostics: (clientId) => wallet.call('spendDiagnostics', { client_id: clientId }),
        dailySpend: (clientId, days) => wallet.call('dailySpend', { client_id: clientId, days }),
      },
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
      // The developer dashboard at /dashboard (issue 18): the `auth` schema's accounts, sessions and
      // keys; sign-in attempts counted in Redis beside the API's budgets; a revoke tells every gateway.
      dashboard: {
        accounts: new AccountStore(prisma),
        sessions: new SessionStore(prisma, {
          maxAgeMs: env.DASHBOARD_SESSION_MAX_HOURS * 3_600_000,
          idleMs: env.DASHBOARD_SESSION_IDLE_MINUTES * 60_000,
        }),
        signInGate: signInGate(
          redisSignInThrottle({
            redis: bus.redis,
            prefix: env.BUS_PREFIX,
            // Counter names are HMACs of the email / address under a key every gateway shares (derived
            // from the bus key), so Redis holds no value a dictionary of emails could link back.
            hashKey: new Uint8Array(
              hkdfSync(
                'sha256',
                signInKeySource(env.BUS_ENCRYPTION_KEY),
                '',
                'dashboard sign-in throttle',
                32,
              ),
            ),
          }),
        ),
        apiKeys: keyStore,
        keyRevoked: (keyId) => publishEvent(bus, 'apikey.revoked', { key_id: keyId }),
        // A new key, shown once after the create form's redirect: sealed beside the session in Redis.
        oneTimeNotes: oneTimeNotes(redisNoteStorage({ redis: bus.redis, prefix: env.BUS_PREFIX })),
      },
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
