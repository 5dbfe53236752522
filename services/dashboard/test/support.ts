import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { type ApiKeyListing, ApiKeyStore } from '@svc/auth';
import { publishEvent, subscribeEvents } from '@svc/bus';
import { microsFromUsd, type RpcService } from '@svc/contracts';
// The gateway's own `keys` handlers (it owns the `auth` schema), served here as its main.ts serves them.
import { keysHandlers } from '@svc/gateway/src/keys/keys-rpc';
import { memoryLogger } from '@svc/log';
import {
  type RunDriver,
  runDriver,
  startTestPlatform,
  startUploadsDataRecorder,
  type TestPlatform,
  type UploadsDataRecorder,
} from '@svc/test-platform';
import { listenOnLoopback } from '@svc/testkit';
import { createDashboardApp } from '../src/app';
import type { DashboardDeps, PlatformPorts } from '../src/ports';
import { CLIENT_ID, FakeDashboard, OTHER_CLIENT_ID } from './memory-stores';

/**
 * The dashboard app on loopback over the platform's real services: the registry, wallet,
 * orchestrator, uploads service and vault from their own handlers in this process, and the
 * gateway's `keys` handlers over the real API key store, all answering on the in-memory transport
 * (@svc/test-platform), with the uploads service's data port on loopback (behind a recorder, as the
 * gateway's harness has it). The dashboard's own stores
 * (people, sessions, the sign-in gate, one-time notes) are in memory with a clock the tests move
 * (memory-stores.ts). Starts a test database: the suites that use it are *.int.test.ts.
 */

/** USD each client has in its wallet at the start (paid quotes and runs fit). */
const OPENING_BALANCE_USD = '5.00';
/** ms a page's RPC waits: long enough for a loaded machine; a service taken `down` fails at once anyway. */
const RPC_TIMEOUT_MS = 5_000;

/** The platform behind the dashboard, and what the gateway's `keys` did with the keys. */
export interface DashboardPlatform extends TestPlatform {
  /** The gateway's key store on the platform's database (`auth.api_keys`). */
  readonly keyStore: ApiKeyStore;
  /** Key ids of every `apikey.revoked` event published on the platform's bus, as received. */
  readonly revokedKeyIds: readonly string[];
}

async function startDashboardPlatform(): Promise<DashboardPlatform> {
  const revokedKeyIds: string[] = [];
  const platform = await startTestPlatform({
    label: 'dashplatform',
    clients: [
      { id: CLIENT_ID, name: 'acme' },
      { id: OTHER_CLIENT_ID, name: 'other' },
    ],
    openingBalanceUsd: OPENING_BALANCE_USD,
    extraServices: {
      // As the gateway's main.ts serves `rpc.keys`.
      keys: ({ prisma, bus, logger }) =>
        keysHandlers({
          clientName: async (id) =>
            (await prisma.client.findUnique({ where: { id }, select: { name: true } }))?.name ?? null,
          store: new ApiKeyStore(prisma),
          keyRevoked: (keyId) => publishEvent(bus, 'apikey.revoked', { key_id: keyId }),
          logger,
        }),
    },
  });
  try {
    const revocations = subscribeEvents(platform.bus, {
      'apikey.revoked': (event) => void revokedKeyIds.push(event.key_id),
    });
    platform.own(revocations);
    await revocations.waitUntilReady();
  } catch (err) {
    await platform.close();
    throw err;
  }
  return { ...platform, keyStore: new ApiKeyStore(platform.prisma), revokedKeyIds };
}

let shared: Promise<DashboardPlatform> | undefined;

/**
 * The suite's platform, started by the first harness that needs it and closed after the suite's
 * last test (jest gives every test file its own copy of this module, so one platform per suite).
 */
export function suitePlatform(): Promise<DashboardPlatform> {
  shared ??= startDashboardPlatform();
  return shared;
}

afterAll(async () => {
  const platform = shared;
  shared = undefined;
  if (platform !== undefined) await (await platform).close();
});

/** The pages' ports as main.ts makes them: the services' typed clients. */
export function platformPorts(platform: TestPlatform): PlatformPorts {
  const options = { timeoutMs: RPC_TIMEOUT_MS };
  return {
    registry: platform.client('registry', options),
    wallet: platform.client('wallet', options),
    orchestrator: platform.client('orchestrator', options),
    uploads: platform.client('uploads', options),
    vault: platform.client('vault', options),
    keys: platform.client('keys', options),
  };
}

/**
 * A charge of `usd` for a run of `slug` at `at`, written into the wallet's ledger as its capture
 * line (as the wallet's own ledger suites pin lines in time: a run cannot be made in the past).
 */
export async function writeCapture(
  platform: TestPlatform,
  clientId: string,
  slug: string,
  usd: string,
  at: Date,
): Promise<void> {
  await platform.prisma.ledgerEntry.create({
    data: {
      clientId,
      kind: 'capture',
      amountMicros: -microsFromUsd(usd),
      runId: randomUUID(),
      slug,
      createdAt: at,
    },
  });
}

export interface DashboardHarness {
  readonly url: string;
  readonly dashboard: FakeDashboard;
  /** The services: `platform.rpc` takes one down, fails its next call and lists the calls made. */
  readonly platform: DashboardPlatform;
  /** Starts runs, claims and reports them as a worker would, adds artifacts. */
  readonly runs: RunDriver;
  /**
   * The recorder in front of the uploads service's data port (UPLOADS_URL): it forwards to the real
   * service; a test may replace its handler (and `reset()` it).
   */
  readonly uploadsData: UploadsDataRecorder;
  /** The requests the dashboard (or a service) sent to `service.method`, in order. */
  requests(service: RpcService, method?: string): unknown[];
  /** A client's API keys as the gateway's store lists them (newest first, revoked ones included). */
  keys(clientId?: string): Promise<ApiKeyListing[]>;
  /** JSON log lines the app wrote so far (parsed). */
  logs(): Array<Record<string, unknown>>;
  /** Raw log output, for "this secret never appears" checks. */
  readonly rawLogs: () => string;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The dashboard app on 127.0.0.1 (ephemeral port), as main.ts builds it, over the suite's platform
 * (every service up, no fault planned) and fresh in-memory stores of its own.
 */
export async function startDashboardHarness(
  overrides: Partial<DashboardDeps> = {},
): Promise<DashboardHarness> {
  const platform = await suitePlatform();
  platform.rpc.clearFaults();
  const { logger, lines: logs, text: rawLogs } = memoryLogger('dashboard');
  const dashboard = new FakeDashboard();
  const uploadsData = await startUploadsDataRecorder(platform.uploadsDataUrl);
  const app = createDashboardApp(
    {
      logger,
      accounts: dashboard.accounts,
      sessions: dashboard.sessions,
      signInGate: dashboard.signInGate,
      oneTimeNotes: dashboard.oneTimeNotes,
      now: dashboard.now,
      ...platformPorts(platform),
      uploadsData: { baseUrl: uploadsData.url, connectTimeoutMs: 1_000 },
      ...overrides,
    },
    // What main.ts sets by default (the gateway on loopback); these requests carry no X-Forwarded-*.
    { trustProxy: 'loopback' },
  );
  const server = createServer(app);
  const url = await listenOnLoopback(server);
  return {
    url,
    dashboard,
    platform,
    runs: runDriver(platform),
    uploadsData,
    requests: (service, method) => platform.rpc.calls(service, method).map((call) => call.request),
    keys: (clientId = CLIENT_ID) => platform.keyStore.listForClient(clientId),
    logs,
    rawLogs,
    fetch: (path, init) => fetch(`${url}${path}`, init),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      await uploadsData.close();
    },
  };
}
