import { hkdfSync } from 'node:crypto';
import { AccountStore, SessionStore, warmPasswordHashing } from '@svc/auth/accounts';
import { NESTED_CALL_MARGIN_MS, serviceClient } from '@svc/bus';
import { callsOtherServices, platformCatalog, type RpcService } from '@svc/contracts';
import { type Closable, defineService, listenHttp } from '@svc/service-kit';
import { fallbackWarning } from '@svc/shared-counter';
import { createDashboardApp } from './app';
import { loadDashboardEnv } from './env';
import { oneTimeNotes, redisNoteStorage } from './one-time-notes';
import { dashboardPeople } from './people';
import { redisSignInThrottle, signInGate } from './sign-in/throttle';

// The dashboard process (issue 24 item 3): the developer dashboard the gateway serves at /dashboard
// on its origin, as a process of its own. Wiring only (defineService: env → logger → prisma (the
// `dashboard` schema) → bus → start → health server): the platform's typed clients (the gateway's
// `keys` included) → its own stores (accounts, sessions, sign-in throttle, one-time notes) → HTTP on
// DATA_PORT, which only the gateway calls.

/**
 * ms a vault call that reads or writes a document may take (an extraction, a fill): the vault asks
 * the uploads service for the upload, reads up to 10 MB from object storage and parses or fills a
 * PDF; under the 60 s idle timeout common in proxies, as the gateway's own vault routes wait.
 */
const VAULT_DOCUMENT_CALL_MS = 45_000;

/** ms one request may take to arrive in full: the gateway's bound on the same request. */
const REQUEST_TIMEOUT_MS = 600_000;

/** The bus key that seals new messages (the first of BUS_ENCRYPTION_KEY): the sign-in throttle's HMAC key source. */
function signInKeySource(keys: readonly Uint8Array[]): Uint8Array {
  const current = keys[0];
  if (current === undefined) throw new Error('BUS_ENCRYPTION_KEY holds no key');
  return current;
}

defineService({
  name: 'dashboard',
  env: loadDashboardEnv,
  needs: { database: true, bus: { catalog: platformCatalog } },
  // Creation order; closed in reverse after the health server: HTTP (stop accepting, finish
  // in-flight), then the bus and Prisma.
  start: async ({ env, logger, prisma, bus }) => {
    const closables: Closable[] = [];
    const timeoutMs = env.RPC_TIMEOUT_MS;
    // A service that calls others (NESTED_RPC_SERVICES) is waited for a little longer, so a page
    // names the service that is down, not the one that waited for it.
    const callMs = (service: RpcService) =>
      timeoutMs + (callsOtherServices(service) ? NESTED_CALL_MARGIN_MS : 0);
    const documentMs = Math.max(callMs('vault'), VAULT_DOCUMENT_CALL_MS);
    const keys = serviceClient(bus, 'keys', { timeoutMs });
    const people = dashboardPeople({
      accounts: new AccountStore(prisma),
      sessions: new SessionStore(prisma, {
        maxAgeMs: env.DASHBOARD_SESSION_MAX_HOURS * 3_600_000,
        idleMs: env.DASHBOARD_SESSION_IDLE_MINUTES * 60_000,
      }),
      keys,
    });
    // The first unknown-email sign-in must cost what the others do (argon2 dummy hash).
    await warmPasswordHashing();

    const app = createDashboardApp(
      {
        logger,
        ...people,
        signInGate: signInGate(
          redisSignInThrottle({
            redis: bus.redis,
            prefix: env.BUS_PREFIX,
            // Counter names are HMACs of the email / address under a key every dashboard process
            // shares (derived from the bus key), so Redis holds no value a dictionary of emails could
            // link back (decisions DL2).
            hashKey: new Uint8Array(
              hkdfSync(
                'sha256',
                signInKeySource(env.BUS_ENCRYPTION_KEY),
                '',
                'dashboard sign-in throttle',
                32,
              ),
            ),
            onFallback: fallbackWarning({
              logger,
              message: 'sign-in throttle: Redis unavailable, counting attempts in this process only',
            }),
          }),
        ),
        // A new key, shown once after the create form's redirect: sealed beside the session in Redis.
        oneTimeNotes: oneTimeNotes(redisNoteStorage({ redis: bus.redis, prefix: env.BUS_PREFIX })),
        registry: serviceClient(bus, 'registry', { timeoutMs: callMs('registry') }),
        wallet: serviceClient(bus, 'wallet', { timeoutMs: callMs('wallet') }),
        orchestrator: serviceClient(bus, 'orchestrator', { timeoutMs: callMs('orchestrator') }),
        uploads: serviceClient(bus, 'uploads', { timeoutMs: callMs('uploads') }),
        vault: serviceClient(bus, 'vault', {
          timeoutMs: callMs('vault'),
          methodTimeoutsMs: { createExtraction: documentMs, fillDocument: documentMs },
        }),
        keys,
        // Bytes go over HTTP, not the bus; a connection gets the same patience as an RPC answer.
        uploadsData: { baseUrl: env.UPLOADS_URL, connectTimeoutMs: timeoutMs },
        publicBaseUrl: env.PUBLIC_BASE_URL,
      },
      { trustProxy: env.TRUST_PROXY },
    );
    const http = await listenHttp(app, {
      port: env.DATA_PORT,
      graceMs: Math.floor(env.SHUTDOWN_TIMEOUT_MS / 2),
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    closables.push(http);
    logger.info({ port: http.port }, 'listening');
    return closables;
  },
});
