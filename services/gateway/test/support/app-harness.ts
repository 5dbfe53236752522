import { generateApiKey } from '@svc/auth';
import type { ReadinessResponse, Scope } from '@svc/contracts';
import { NotFoundError, ServiceUnavailableError } from '@svc/errors';
import { memoryLogger } from '@svc/log';
import { type AppDeps, createApp } from '../../src/app';
import { CatalogCache } from '../../src/domain/catalog-cache';
import { RunWaiter } from '../../src/domain/run-waiter';
import type { AuthContext } from '../../src/locals';
import type { RequestSample } from '../../src/middleware/metrics';
import { FakeOrchestrator } from './fake-orchestrator';
import { FakeUploads } from './fake-uploads';
import { type FakeUploadsData, startFakeUploadsData } from './fake-uploads-data';
import { FakeVault } from './fake-vault';
import { FakeWallet } from './fake-wallet';
import { crtDescription, searchAnswer } from './fixtures';

/** Presenting this makes the fake key store fail as if PostgreSQL were down. */
export const BROKEN_STORE_KEY = 'store-down';
export const CLIENT_ID = '5f0c7a62-3c39-4f4e-9a55-0d3c6f0e8a11';
/** A second client, for "only the owner sees its runs". */
export const OTHER_CLIENT_ID = '0b9d3c1e-7a4f-4e2b-8c6d-5e1f2a3b4c5d';
/** ms between getRun polls of the harness's run waiter (small: tests must not sit on a 1 s poll). */
export const HARNESS_POLL_INTERVAL_MS = 20;

/** A key of the real format, known to the fake verifier with the given scopes. */
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
  readonly registry: { searches: number; describes: number; down: boolean };
  /** A new key of the real format with exactly `scopes` (for the caller's client unless told). */
  issueKey(scopes: Scope[], clientId?: string): string;
  /** The fake orchestrator behind the run routes (unless `overrides.orchestrator` replaced it). */
  readonly orchestrator: FakeOrchestrator;
  /** The fake wallet behind the account routes (unless `overrides.wallet` replaced it). */
  readonly wallet: FakeWallet;
  /** The fake uploads RPC behind the session, upload and manifest routes (unless overridden). */
  readonly uploads: FakeUploads;
  /** The loopback server standing in for the uploads service's internal port (UPLOADS_URL). */
  readonly uploadsData: FakeUploadsData;
  /** The fake vault behind /api/vault (unless `overrides.vault` replaced it). */
  readonly vault: FakeVault;
  /** The real RunWaiter over the fake orchestrator, fed its `run.finished` notifications. */
  readonly waiter: RunWaiter;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** The app factory on 127.0.0.1 (ephemeral port), with in-memory stand-ins for RPC and the key store. */
export async function startAppHarness(overrides: Partial<AppDeps> = {}): Promise<AppHarness> {
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
  const orchestrator = new FakeOrchestrator();
  const wallet = new FakeWallet();
  const uploads = new FakeUploads();
  const vault = new FakeVault();
  const uploadsData = await startFakeUploadsData(uploads);
  const waiter = new RunWaiter({
    getRun: (clientId, runId) => orchestrator.getRun(clientId, runId),
    pollIntervalMs: HARNESS_POLL_INTERVAL_MS,
  });
  orchestrator.onFinished = (runId) => waiter.notify({ run_id: runId });
  const registry = { searches: 0, describes: 0, down: false };
  const unavailable = () => new ServiceUnavailableError('registry service did not answer within 1000 ms');

  const catalog = new CatalogCache(
    {
      search: async (query) => {
        registry.searches += 1;
        if (registry.down) throw unavailable();
        return searchAnswer({ ...query, limit: query.limit });
      },
      describe: async (slug) => {
        registry.describes += 1;
        if (registry.down) throw unavailable();
        if (slug !== 'crt') throw new NotFoundError(`unknown capability: ${slug}`);
        return crtDescription;
      },
    },
    { ttlMs: 30_000, isNotFound: (e) => e instanceof NotFoundError },
  );
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
    wallet,
    orchestrator,
    uploads,
    vault,
    uploadsData: { baseUrl: uploadsData.url, connectTimeoutMs: 1_000 },
    runWaiter: waiter,
    crtRunWaitMs: 5_000,
    readiness: async () => ready,
    observeRequest: (sample) => samples.push(sample),
    ...overrides,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('test server has no TCP port');
  const url = `http://127.0.0.1:${address.port}`;

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
    registry,
    orchestrator,
    wallet,
    uploads,
    uploadsData,
    vault,
    waiter,
    fetch: (path, init) => fetch(`${url}${path}`, init),
    close: async () => {
      waiter.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      await uploadsData.close();
    },
  };
}
