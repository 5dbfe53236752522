import {
  type Bus,
  createBus,
  type RpcServer,
  type ServiceClient,
  type Subscription,
  serveRpc,
  serviceClient,
  subscribeEvents,
} from '@svc/bus';
import {
  CAPABILITIES,
  type JobName,
  type MessageCatalog,
  messageCatalog,
  runnableCapabilities,
} from '@svc/capabilities';
import {
  type CapabilityRecord,
  capabilityWorkersKey,
  type EventPayload,
  type RpcRequestInput,
  type RpcResponse,
  runtimeWorkersKey,
} from '@svc/contracts';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import { freePort } from '@svc/devstack';
import { type MemoryLogger, memoryLogger } from '@svc/log';
import { catalogChangedPublisher } from '@svc/registry/src/adapters/catalog-events';
import { seedCatalog } from '@svc/registry/src/domain/seed';
import { serveRegistryRpc } from '@svc/registry/src/handlers/rpc';
import { MANIFESTS } from '@svc/registry/src/manifests';
import { createCapabilityDirectory } from '@svc/service-kit';
import { startTestStack, type TestStack } from '@svc/testkit';
import {
  DEFAULT_QUOTE_CLEANUP_GRACE_MS,
  DEFAULT_QUOTE_CLEANUP_INTERVAL_MS,
} from '@svc/wallet/src/domain/quote-cleanup';
import { startQuoteCleanup } from '@svc/wallet/src/handlers/quote-cleanup-timer';
import { walletHandlers } from '@svc/wallet/src/handlers/rpc';
import type { Job, Queue } from 'bullmq';
import { type orchestratorHandlers, serveOrchestratorRpc } from '../src/handlers/rpc';
import { OpenedQueue } from './opened-queue';

/**
 * What the orchestrator suites share: a private stack (fresh migrated database, fresh bus prefix)
 * and this process's own view of it: Prisma on the stack's database, a bus on its prefix, the
 * BullMQ queues (to look at the jobs the orchestrator queued) and every `run.finished` event seen.
 */
export interface HarnessBase {
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

/** A private stack running the requested services as real processes (startTestStack), and the rest. */
export interface Harness extends HarnessBase {
  stack: TestStack;
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
      // Scored by when its heartbeat lapses (ms since the epoch): a minute ahead; in the runtime's
      // set and in the set of each capability of that runtime, as a worker serving them all beats.
      const lapses = Date.now() + 60_000;
      await bus.redis.zadd(runtimeWorkersKey(stack.prefix, runtime), lapses, workerId);
      for (const slug of capabilitiesOf(runtime)) {
        await bus.redis.zadd(capabilityWorkersKey(stack.prefix, slug), lapses, workerId);
      }
    },
    async workerGone(runtime, workerId = 'test-worker') {
      await bus.redis.zrem(runtimeWorkersKey(stack.prefix, runtime), workerId);
      for (const slug of capabilitiesOf(runtime)) {
        await bus.redis.zrem(capabilityWorkersKey(stack.prefix, slug), workerId);
      }
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

/** The services startInProcessHarness serves in this process besides the orchestrator. */
export type InProcessService = 'registry' | 'wallet';

export interface InProcessHarness extends HarnessBase {
  /** The stack's bus prefix, Redis and bus keys: another bus or queue on the same bus (a worker). */
  prefix: string;
  redisUrl: string;
  busEncryptionKeys: readonly Uint8Array[];
  /**
   * Takes a service down as stopping its process would: its RPC server closes (requests wait
   * unanswered, so callers time out with 503) and so does what its main.ts starts beside it.
   */
  stopService(name: InProcessService): Promise<void>;
  /** Serves a stopped service again, as a restarted process (requests left from before are dropped late). */
  startService(name: InProcessService): Promise<void>;
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

/** Something served in this process, closed when its service is stopped. */
interface Served {
  close(): Promise<void>;
}

/**
 * The registry and the wallet as their main.ts wire them (minus env, health server and process),
 * each on a Prisma client of its own (its own pool, as its process has) and the harness's bus:
 * `start(name)` serves one (ready when it resolves), `stop(name)` closes what it serves.
 */
function inProcessServices(h: HarnessBase, databaseUrl: string) {
  const prismaOf = (name: InProcessService) =>
    createPrismaClient(databaseUrl, { max: 10, applicationName: name, logger: h.log.logger });
  const prisma: Record<InProcessService, PrismaClient> = {
    registry: prismaOf('registry'),
    wallet: prismaOf('wallet'),
  };
  const loggerOf = (name: InProcessService) => h.log.logger.child({ in_process: name });
  const serve: Record<InProcessService, () => Promise<Served>> = {
    registry: async () => {
      // Seeded from this build's manifests before it answers, on every start, as main.ts does.
      await seedCatalog({
        prisma: prisma.registry,
        publishCatalogChanged: catalogChangedPublisher(h.bus),
        logger: loggerOf('registry'),
        manifests: MANIFESTS,
      });
      const rpc = serveRegistryRpc(h.bus, prisma.registry);
      await rpc.waitUntilReady();
      return rpc;
    },
    wallet: async () => {
      const logger = loggerOf('wallet');
      // The quote TTL and the clean-up's timings: the env defaults (QUOTE_TTL_MS and the others unset).
      const rpc = serveRpc(h.bus, 'wallet', walletHandlers({ prisma: prisma.wallet, logger }));
      const quoteCleanup = startQuoteCleanup({
        prisma: prisma.wallet,
        logger,
        everyMs: DEFAULT_QUOTE_CLEANUP_INTERVAL_MS,
        graceMs: DEFAULT_QUOTE_CLEANUP_GRACE_MS,
      });
      await rpc.waitUntilReady();
      return {
        // main.ts's closing order: the RPC responder, then the quote clean-up.
        async close() {
          await rpc.close();
          await quoteCleanup.close();
        },
      };
    },
  };
  const running = new Map<InProcessService, Served>();
  const stop = async (name: InProcessService): Promise<void> => {
    const served = running.get(name);
    running.delete(name);
    await served?.close();
  };
  return {
    async start(name: InProcessService): Promise<void> {
      if (running.has(name)) throw new Error(`${name} is already running`);
      running.set(name, await serve[name]());
    },
    stop,
    /** Stops every service still served, then closes their Prisma clients. */
    async close(): Promise<void> {
      for (const name of [...running.keys()].reverse()) await stop(name);
      await Promise.all(Object.values(prisma).map((client) => client.$disconnect()));
    },
  };
}

/**
 * A private stack (fresh database and bus prefix) with no service process: the registry's and the
 * wallet's real RPC handlers (inProcessServices) and the orchestrator's (the workers' claim and
 * reports included) all run in this process, on one bus, so a test can hand the orchestrator's a
 * dead Redis, run a dispatcher sweep itself or take the wallet down (stopService).
 * Nothing answers `rpc.uploads`: a suite that needs it serves its own (serveRpc on `h.bus`).
 */
export async function startInProcessHarness(
  options: InProcessHarnessOptions = {},
): Promise<InProcessHarness> {
  const { stack, ...h } = await startHarness({ services: [] });
  const services = inProcessServices(h, stack.databaseUrl);
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
  let server: RpcServer | undefined;
  const close = async () => {
    await server?.close();
    await services.close();
    await h.close();
  };
  try {
    // Both before the orchestrator answers (its start-up needs neither, but every test does).
    const started = await Promise.allSettled([services.start('registry'), services.start('wallet')]);
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    server = serveOrchestratorRpc(handlerDeps(h.bus));
    await server.waitUntilReady();
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
  return {
    ...h,
    prefix: stack.prefix,
    redisUrl: stack.redisUrl,
    busEncryptionKeys: stack.busEncryptionKeys,
    stopService: (name) => services.stop(name),
    startService: (name) => services.start(name),
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
    close,
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

/** The runnable capabilities of `runtime` (a worker of it serving every one of them announces each). */
function capabilitiesOf(runtime: string): string[] {
  return runnableCapabilities(CAPABILITIES)
    .filter((capability) => capability.execution.runtime === runtime)
    .map((capability) => capability.slug);
}
