import {
  type Bus,
  type RpcServer,
  type ServeRpcOptions,
  type ServiceClient,
  type ServiceHandlers,
  serveRpc,
} from '@svc/bus';
import type { MessageCatalog } from '@svc/capabilities';
import type { PlatformCatalog } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import { type CapabilityDirectory, createCapabilityDirectory } from '@svc/service-kit';
import { capabilityJobEnqueuer } from '../adapters/capability-queue';
import { workerAvailability } from '../adapters/redis-ports';
import { cancelRun } from '../domain/cancel-run';
import { getRunForClient } from '../domain/get-run';
import { listRuns, runCounts, runTimeline } from '../domain/list-runs';
import { quoteCapability } from '../domain/quote';
import { runReceipt } from '../domain/receipt';
import { startCapabilityRun } from '../domain/start-capability-run';
import { startCrtRun } from '../domain/start-crt-run';
import type { StartRunDeps } from '../domain/start-run';
import {
  artifactRegistrar,
  cancelRequestedPublisher,
  fileResolver,
  queuedJobRemover,
  runFinishedPublisher,
  walletSettler,
} from './bus-ports';
import { runReportHandlers } from './run-reports';

export interface OrchestratorRpcDeps {
  prisma: PrismaClient;
  /** Where runs are queued (`capability.<slug>`) and events published. */
  bus: Bus<MessageCatalog>;
  /** `rpc.wallet`: quotes, holds, settlements and ledgers. */
  wallet: Pick<
    ServiceClient<PlatformCatalog, 'wallet'>,
    'issueQuote' | 'holdForRun' | 'settle' | 'runLedger'
  >;
  /** `rpc.uploads`: the files a quote or run input names, a completed run's artifacts. */
  uploads: Pick<ServiceClient<PlatformCatalog, 'uploads'>, 'resolveFiles' | 'registerArtifacts'>;
  /** Capability records (registry.describe behind a cache, registryDirectory). */
  directory: CapabilityDirectory;
  logger: Logger;
}

/** `registry.describe` behind the orchestrator's cache (CAPABILITY_CACHE_TTL_MS, cleared on catalog.changed). */
export function registryDirectory(
  registry: Pick<ServiceClient<PlatformCatalog, 'registry'>, 'describe'>,
  ttlMs: number,
): CapabilityDirectory {
  return createCapabilityDirectory({
    ttlMs,
    fetch: async (slug) => (await registry.describe({ slug })).capability,
  });
}

/**
 * `rpc.orchestrator` methods (ping is answered by serveRpc itself). Transport only: requests arrive
 * parsed against rpcCatalog, AppErrors (402, 404, 409, 422, 503) travel back to the gateway as
 * themselves.
 */
export function orchestratorHandlers(
  deps: OrchestratorRpcDeps,
): ServiceHandlers<MessageCatalog, 'orchestrator'> {
  const { prisma, bus, wallet, logger } = deps;
  const workerUp = workerAvailability(bus, logger);
  const publishFinished = runFinishedPublisher(bus);
  const settle = walletSettler(wallet);
  const resolveFiles = fileResolver(deps.uploads);
  const startDeps: StartRunDeps = {
    prisma,
    holdForRun: wallet.holdForRun,
    resolveFiles,
    enqueue: capabilityJobEnqueuer(bus),
    publishFinished,
    settle,
    workerUp,
    logger,
  };
  const cancelDeps = {
    prisma,
    removeQueuedJob: queuedJobRemover(bus),
    publishCancelRequested: cancelRequestedPublisher(bus),
    publishFinished,
    settle,
    logger,
  };
  return {
    // The worker's claim and reports (issue 15).
    ...runReportHandlers({
      prisma,
      registerArtifacts: artifactRegistrar(deps.uploads),
      settle,
      publishFinished,
      logger,
    }),
    startCrtRun: (request) =>
      startCrtRun(startDeps, {
        clientId: request.client_id,
        input: request.input,
        quoteId: request.quote_id,
        clientType: request.client_type,
        idempotencyKey: request.idempotency_key,
      }),
    getRun: ({ client_id, run_id }) => getRunForClient(prisma, workerUp, client_id, run_id),
    quote: (request) =>
      quoteCapability(
        { directory: deps.directory, issueQuote: wallet.issueQuote, resolveFiles, workerUp },
        {
          clientId: request.client_id,
          slug: request.slug,
          input: request.input,
          clientType: request.client_type,
        },
      ),
    startRun: (request) =>
      startCapabilityRun(
        { ...startDeps, directory: deps.directory, resolveFiles },
        {
          clientId: request.client_id,
          slug: request.slug,
          input: request.input,
          quoteId: request.quote_id,
          clientType: request.client_type,
          idempotencyKey: request.idempotency_key,
        },
      ),
    listRuns: ({ client_id, ...query }) => listRuns(prisma, client_id, query),
    runCounts: ({ client_id, created_from }) => runCounts(prisma, client_id, created_from),
    runTimeline: ({ client_id, run_id }) => runTimeline(prisma, client_id, run_id),
    cancelRun: ({ client_id, run_id }) => cancelRun(cancelDeps, client_id, run_id),
    receipt: ({ client_id, run_id }) =>
      runReceipt({ prisma, workerUp, runLedger: wallet.runLedger }, client_id, run_id),
  };
}

export function serveOrchestratorRpc(deps: OrchestratorRpcDeps, options: ServeRpcOptions = {}): RpcServer {
  return serveRpc(deps.bus, 'orchestrator', orchestratorHandlers(deps), options);
}
