import {
  type Bus,
  createBus,
  type ServiceClient,
  type Subscription,
  serviceClient,
  subscribeEvents,
} from '@svc/bus';
import { type JobName, type MessageCatalog, messageCatalog } from '@svc/capabilities';
import {
  type CapabilityRecord,
  type EventPayload,
  type RpcRequestInput,
  type RpcResponse,
  runtimeWorkersKey,
} from '@svc/contracts';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import { freePort } from '@svc/devstack';
import { type MemoryLogger, memoryLogger } from '@svc/log';
import { createCapabilityDirectory } from '@svc/service-kit';
import { startTestStack, type TestStack } from '@svc/testkit';
import type { Job, Queue } from 'bullmq';
import { type orchestratorHandlers, serveOrchestratorRpc } from '../src/handlers/rpc';
import { OpenedQueue } from './opened-queue';

/**
 * What the orchestrator suites share: a private stack (fresh migrated database, fresh bus prefix)
 * running the requested services as real processes, plus this process's own view of it: Prisma on
 * the stack's database, a bus on its prefix, the BullMQ queues (to look at the jobs the
 * orchestrator queued) and every `run.finished` event seen.
 */
export interface Harness {
  stack: TestStack;
  prisma: PrismaClient;
  bus: Bus<MessageCatalog>;
  log: MemoryLogger;
  orchestrator: ServiceClient<MessageCatalog, 'orchestrator'>;
  wallet: ServiceClient<MessageCatalog, 'wallet'>;
  crtQueue: Queue;
  /** The BullMQ queue of a job type on the stack's prefix (made once, closed with the harness). */
  queue(name: JobName): Queue;
  /** Every run.finished seen so far, in order. */
  finished: Array<EventPayload<'run.finished'>>;
  /** Every run.cancel-requested seen so far, in order. */
  cancelRequests: Array<EventPayload<'run.cancel-requested'>>;
  /** A client with a key and wallet rows (opening credit, optional monthly spend cap), in the stack's database. */
  client(options: { balanceUsd?: string; spendCapUsd?: string }): Promise<string>;
  /** Announces a worker of `runtime` in its heartbeat set (as a worker's beat does) until `workerGone`. */
  workerUp(runtime: string, workerId?: string): Promise<void>;
  workerGone(runtime: string, workerId?: string): Promise<void>;
  /** A worker's report (`orchestrator.reportRun`), answered once applied (or not). */
  report(
    payload: RpcRequestInput<'orchestrator', 'reportRun'>,
  ): Promise<RpcResponse<'orchestrator', 'reportRun'>>;
  /** A worker's claim of its job (`orchestrator.claimAttempt`). */
  claim(runId: string, jobId: string): Promise<RpcResponse<'orchestrator', 'claimAttempt'>>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  services: Parameters<typeof startTestStack>[0]['services'];
  env?: Record<string, string>;
}

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const stack = await startTestStack({ services: options.services, env: options.env ?? {} });
  const log = memoryLogger('orchestrator-test', 'warn');
  const prisma = createPrismaClient(stack.databaseUrl, { max: 20 });
  const bus = createBus({
    catalog: messageCatalog,
    redisUrl: stack.redisUrl,
    prefix: stack.prefix,
    logger: log.logger,
    encryptionKeys: stack.busEncryptionKeys,
  });
  const connection = { url: stack.redisUrl };
  const queues = new Map<JobName, Queue>();
  const queue = (name: JobName): Queue => {
    let found = queues.get(name);
    if (!found) {
      // Payloads are sealed in Redis: this queue shows them opened.
      found = new OpenedQueue(bus, name, connection);
      queues.set(name, found);
    }
    return found;
  };
  const crtQueue = queue('capability.crt');
  const finished: Array<EventPayload<'run.finished'>> = [];
  const cancelRequests: Array<EventPayload<'run.cancel-requested'>> = [];
  const subscription: Subscription = subscribeEvents(bus, {
    'run.finished': (event) => {
      finished.push(event);
    },
    'run.cancel-requested': (event) => {
      cancelRequests.push(event);
    },
  });
  await subscription.waitUntilReady();

  const orchestrator = serviceClient(bus, 'orchestrator', { timeoutMs: 15_000 });
  return {
    stack,
    prisma,
    bus,
    log,
    orchestrator,
    wallet: serviceClient(bus, 'wallet', { timeoutMs: 15_000 }),
    crtQueue,
    queue,
    finished,
    cancelRequests,
    async client(options) {
      const key = await stack.createApiKey({ scopes: ['capabilities:run'], ...options });
      return key.clientId;
    },
    async workerUp(runtime, workerId = 'test-worker') {
      // Scored by when its heartbeat lapses (ms since the epoch): a minute ahead.
      await bus.redis.zadd(runtimeWorkersKey(stack.prefix, runtime), Date.now() + 60_000, workerId);
    },
    async workerGone(runtime, workerId = 'test-worker') {
      await bus.redis.zrem(runtimeWorkersKey(stack.prefix, runtime), workerId);
    },
    report: (payload) => orchestrator.reportRun(payload),
    claim: (runId, jobId) => orchestrator.claimAttempt({ run_id: runId, job_id: jobId }),
    async close() {
      await subscription.close();
      for (const open of queues.values()) await open.close();
      await bus.close();
      await prisma.$disconnect();
      await stack.close();
    },
  };
}

/** ms: the in-process orchestrator's wallet (and uploads) timeout: short, so "wallet down" answers quickly. */
export const WALLET_TIMEOUT_MS = 1_500;

/** CrtInput as a caller sends it (defaults may be omitted). */
export type RequestInput = RpcRequestInput<'orchestrator', 'startCrtRun'>['input'];

export interface InProcessHarness extends Harness {
  /** `startCrtRun` for `clientId` with `{apex: 'example.com'}` unless `extra` says otherwise. */
  start(
    clientId: string,
    extra?: { idempotency_key?: string; quote_id?: string; input?: RequestInput },
  ): Promise<RpcResponse<'orchestrator', 'startCrtRun'>>;
  /** `orchestrator.quote` of `slug` for `clientId`. */
  quote(
    clientId: string,
    slug: string,
    input: Record<string, unknown>,
  ): Promise<RpcResponse<'orchestrator', 'quote'>>;
  /** `orchestrator.startRun` (client_type api unless given). */
  run(
    request: Omit<RpcRequestInput<'orchestrator', 'startRun'>, 'client_type'> & { client_type?: string },
  ): Promise<RpcResponse<'orchestrator', 'startRun'>>;
  /** The `capability.crt` job of a run's current hand-over (its `job_id`), if queued. */
  jobOf(runId: string): Promise<Job | undefined>;
  /** The handlers' dependencies, to build more handlers on another bus (e.g. a dead Redis). */
  handlerDeps(bus: Bus<MessageCatalog>): Parameters<typeof orchestratorHandlers>[0];
}

export interface InProcessHarnessOptions {
  /**
   * Records the orchestrator's directory answers for these slugs instead of asking the registry
   * (capabilities the registry does not publish yet, or file requirements a test needs); every other
   * slug is the registry's.
   */
  records?: Readonly<Record<string, CapabilityRecord>>;
}

/**
 * A stack with real registry and wallet processes, and the orchestrator's RPC handlers (the workers'
 * claim and reports included) in this process, so a test can hand them a dead Redis or run a
 * dispatcher sweep itself.
 * Nothing answers `rpc.uploads`: a suite that needs it serves its own (serveRpc on `h.bus`).
 */
export async function startInProcessHarness(
  options: InProcessHarnessOptions = {},
): Promise<InProcessHarness> {
  const h = await startHarness({ services: ['registry', 'wallet'] });
  const wallet = serviceClient(h.bus, 'wallet', { timeoutMs: WALLET_TIMEOUT_MS });
  const registry = serviceClient(h.bus, 'registry', { timeoutMs: WALLET_TIMEOUT_MS });
  const uploads = serviceClient(h.bus, 'uploads', { timeoutMs: WALLET_TIMEOUT_MS });
  const records = options.records ?? {};
  const directory = createCapabilityDirectory({
    // ms: the production default (CAPABILITY_CACHE_TTL_MS).
    ttlMs: 5_000,
    fetch: async (slug) => {
      const own = Object.hasOwn(records, slug) ? records[slug] : undefined;
      return own ?? (await registry.describe({ slug })).capability;
    },
  });
  const deps = { prisma: h.prisma, bus: h.bus, logger: h.log.logger };
  const handlerDeps = (bus: Bus<MessageCatalog>) => ({
    ...deps,
    bus,
    wallet,
    uploads,
    directory,
  });
  const server = serveOrchestratorRpc(handlerDeps(h.bus));
  await server.waitUntilReady();
  return {
    ...h,
    start: (clientId, extra = {}) =>
      h.orchestrator.startCrtRun({
        client_id: clientId,
        client_type: 'api',
        input: { apex: 'example.com' },
        ...extra,
      }),
    quote: (clientId, slug, input) =>
      h.orchestrator.quote({ client_id: clientId, slug, input, client_type: 'api' }),
    run: (request) => h.orchestrator.startRun({ client_type: 'api', ...request }),
    async jobOf(runId) {
      const row = await h.prisma.run.findUnique({ where: { id: runId }, select: { jobId: true } });
      return row?.jobId ? h.crtQueue.getJob(row.jobId) : undefined;
    },
    handlerDeps,
    async close() {
      await server.close();
      await h.close();
    },
  };
}

/** A redis:// URL on a loopback port nothing listens on (free a moment ago). */
export async function deadRedisUrl(): Promise<string> {
  return `redis://127.0.0.1:${await freePort()}`;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

/** A complete, realistic CrtResult for a completed report. */
export function crtResult(apex: string): Record<string, unknown> {
  return {
    status: 'completed',
    summary: `Found 2 distinct hostnames for ${apex} in certificate-transparency logs (crt.sh); returning 2 (limit 100).`,
    apex,
    count: 2,
    limit: 100,
    include_first_seen: false,
    observations: [{ hostname: apex }, { hostname: `www.${apex}` }],
    provider: 'crt.sh',
    live_hosts_verified: false,
    disclosure:
      'Certificate-transparency observations list hostnames that appeared in publicly logged TLS certificates. They do not prove that a host exists in DNS, is live, or is reachable, and they may include retired names.',
  };
}
