import { createServer } from 'node:http';
import { generateApiKey } from '@svc/auth';
import { subscribeEvents } from '@svc/bus';
import type { ReadinessResponse, RpcService, Scope } from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
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
import { type AppDeps, createApp } from '../../src/app';
import { CatalogCache } from '../../src/domain/catalog-cache';
import { RunWaiter } from '../../src/domain/run-waiter';
import type { AuthContext } from '../../src/locals';
import type { RequestSample } from '../../src/middleware/metrics';

/** Presenting this makes the in-memory key store fail as if PostgreSQL were down. */
export const BROKEN_STORE_KEY = 'store-down';
export const CLIENT_ID = '5f0c7a62-3c39-4f4e-9a55-0d3c6f0e8a11';
/** A second client, for "only the owner sees its runs". */
export const OTHER_CLIENT_ID = '0b9d3c1e-7a4f-4e2b-8c6d-5e1f2a3b4c5d';
/** ms between getRun polls of the harness's run waiter (small: tests must not sit on a 1 s poll). */
export const HARNESS_POLL_INTERVAL_MS = 20;
/** USD each of the two clients has in its wallet at the start (paid quotes and runs fit). */
export const OPENING_BALANCE_USD = '5.00';

/**
 * The services behind the gateway, once per suite (@svc/test-platform): their real handlers in this
 * process, a crt worker that ends runs as a test asks, and the two clients (their auth.clients rows,
 * their wallets credited). Several app harnesses of one suite may share it.
 */
export type AppPlatform = TestPlatform;

let shared: Promise<AppPlatform> | undefined;

/**
 * The suite's platform, started by the first harness that needs it and closed after the suite's
 * last test (jest gives every test file its own copy of this module, so one platform per suite).
 */
function suitePlatform(): Promise<AppPlatform> {
  shared ??= startAppPlatform();
  return shared;
}

afterAll(async () => {
  const platform = shared;
  shared = undefined;
  if (platform !== undefined) await (await platform).close();
});

export function startAppPlatform(): Promise<AppPlatform> {
  return startTestPlatform({
    clients: [
      { id: CLIENT_ID, name: 'acme' },
      { id: OTHER_CLIENT_ID, name: 'other' },
    ],
    openingBalanceUsd: OPENING_BALANCE_USD,
  });
}

/** A key of the real format, known to the in-memory verifier with the given scopes. */
function issue(keys: Map<string, AuthContext>, scopes: Scope[], clientId = CLIENT_ID): string {
  const key = generateApiKey();
  keys.set(key.apiKey, {
    clientId,
    clientName: clientId === CLIENT_ID ? 'acme' : 'other',
    keyId: key.keyId,
    scopes,
  });
  return key.apiKey;
}

export interface AppHarness {
  readonly url: string;
  /** JSON log lines the app wrote so far (parsed). */
  logs(): Array<Record<string, unknown>>;
  /** Waits (up to 2 s) for a log line that matches: response lines are written as the response closes. */
  waitForLog(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Raw log output, for "this secret never appears" checks. */
  readonly rawLogs: () => string;
  readonly samples: RequestSample[];
  readonly keys: {
    billing: string;
    plain: string;
    runner: string;
    otherRunner: string;
    /** capabilities:quote only. */
    quoter: string;
    /** capabilities:quote, capabilities:run and billing:read: a client that quotes, runs and pays. */
    payer: string;
    /** billing:read of the other client. */
    otherBilling: string;
    /** uploads:write only. */
    uploader: string;
    /** artifacts:read only. */
    artifactReader: string;
  };
  /** A new key of the real format with exactly `scopes` (for the caller's client unless told). */
  issueKey(scopes: Scope[], clientId?: string): string;
  /**
   * The services behind the app: `platform.rpc` takes a service down, fails its next call and lists
   * the calls made; `platform.client(…)` reaches a service as a test; `platform.crt` ends crt runs.
   */
  readonly platform: AppPlatform;
  /** The requests the gateway (or a service) sent to `service.method`, in order, as they arrived. */
  requests(service: RpcService, method: string): unknown[];
  /** Claims and reports runs as a worker would; a finished crt run of any client. */
  readonly runs: RunDriver;
  /** The recorder in front of the uploads service's internal port (UPLOADS_URL). */
  readonly uploadsData: UploadsDataRecorder;
  /** The real RunWaiter over the orchestrator, fed its `run.finished` events. */
  readonly waiter: RunWaiter;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface AppHarnessOptions {
  /** The services behind the app; default: the suite's (one per test file, closed after its tests). */
  platform?: AppPlatform;
}

/**
 * The app factory on 127.0.0.1 (ephemeral port) over the real services in this process
 * (startAppPlatform, shared by the suite's harnesses) and an in-memory key store. A new harness
 * finds the services up and crt runs completing (faults of an earlier test cleared).
 */
export async function startAppHarness(
  overrides: Partial<AppDeps> = {},
  options: AppHarnessOptions = {},
): Promise<AppHarness> {
  const platform = options.platform ?? (await suitePlatform());
  platform.rpc.clearFaults();
  platform.crt.outcome = 'complete';
  const { logger, lines: logs, text: rawLogs } = memoryLogger('gateway');
  const keys = new Map<string, AuthContext>();
  const billing = issue(keys, ['billing:read', 'capabilities:read']);
  const plain = issue(keys, ['capabilities:read']);
  const runner = issue(keys, ['capabilities:run']);
  const otherRunner = issue(keys, ['capabilities:run'], OTHER_CLIENT_ID);
  const quoter = issue(keys, ['capabilities:quote']);
  const payer = issue(keys, ['capabilities:quote', 'capabilities:run', 'billing:read']);
  const otherBilling = issue(keys, ['billing:read'], OTHER_CLIENT_ID);
  const uploader = issue(keys, ['uploads:write']);
  const artifactReader = issue(keys, ['artifacts:read']);
  const orchestrator = platform.client('orchestrator');
  const registry = platform.client('registry');
  const uploadsData = await startUploadsDataRecorder(platform.uploadsDataUrl);
  const waiter = new RunWaiter({
    getRun: (clientId, runId) => orchestrator.getRun({ client_id: clientId, run_id: runId }),
    pollIntervalMs: HARNESS_POLL_INTERVAL_MS,
  });
  const finished = subscribeEvents(platform.bus, { 'run.finished': (event) => waiter.notify(event) });
  await finished.waitUntilReady();
  const catalog = new CatalogCache(registry, {
    ttlMs: 30_000,
    isNotFound: (e) => e instanceof NotFoundError,
  });
  const samples: RequestSample[] = [];
  const ready: ReadinessResponse = {
    ok: true,
    service: 'gateway',
    checks: { redis: { ok: true }, database: { ok: true } },
  };

  const app = createApp({
    logger,
    keys: {
      verify: async (presented) => {
        if (presented === BROKEN_STORE_KEY) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return keys.get(presented) ?? null;
      },
    },
    catalog,
    wallet: platform.client('wallet'),
    orchestrator,
    uploads: platform.client('uploads'),
    vault: platform.client('vault'),
    uploadsData: { baseUrl: uploadsData.url, connectTimeoutMs: 1_000 },
    runWaiter: waiter,
    crtRunWaitMs: 5_000,
    readiness: async () => ready,
    observeRequest: (sample) => samples.push(sample),
    ...overrides,
  });
  const server = createServer(app);
  const url = await listenOnLoopback(server);

  return {
    url,
    logs,
    waitForLog: async (match) => {
      for (let waited = 0; waited < 2_000; waited += 10) {
        const found = logs().find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`no matching log line in:\n${rawLogs()}`);
    },
    rawLogs,
    samples,
    keys: { billing, plain, runner, otherRunner, quoter, payer, otherBilling, uploader, artifactReader },
    issueKey: (scopes, clientId) => issue(keys, scopes, clientId),
    platform,
    requests: (service, method) => platform.rpc.calls(service, method).map((call) => call.request),
    runs: runDriver(platform),
    uploadsData,
    waiter,
    fetch: (path, init) => fetch(`${url}${path}`, init),
    close: async () => {
      waiter.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      await finished.close();
      await uploadsData.close();
    },
  };
}
