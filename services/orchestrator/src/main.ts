// Orchestrator process: owns the runs (schema `orchestrator`). Answers `rpc.orchestrator` (quote,
// startRun, startCrtRun, getRun, cancelRun, receipt), queues runs for workers, applies their
// `runs.report` jobs (registering a completed run's artifacts with `rpc.uploads` first), resolves
// the uploads a quote or run input names (`rpc.uploads`), publishes `run.finished`, queues wallet
// settlements, and sweeps for undispatched, stalled and unsettled runs and orphan holds
// (docs/decisions.md C11, L-A..L-D).
// Wiring only (defineService: env → logger → prisma → bus → start → health server): dispatcher →
// report consumer → RPC → catalog events.
import { createRpcClient, subscribeEvents } from '@svc/bus';
import { messageCatalog } from '@svc/capabilities';
import { type Closable, defineService } from '@svc/service-kit';
import { type SweepDeps, startDispatcher, sweepRuns } from './domain/dispatcher';
import { OrphanHoldScanner } from './domain/settlement-sweep';
import { loadOrchestratorEnv } from './env';
import { capabilityJobEnqueuer, runFinishedPublisher, settleEnqueuer } from './handlers/bus-ports';
import { consumeRunReports } from './handlers/reports';
import { registryDirectory, serveOrchestratorRpc } from './handlers/rpc';

defineService({
  name: 'orchestrator',
  env: loadOrchestratorEnv,
  // The derived job catalog (@svc/capabilities): it queues every capability's jobs.
  needs: { database: true, bus: { catalog: messageCatalog } },
  // Creation order; closed in reverse after the health server: catalog subscription, RPC responder
  // (no new runs), report consumer, dispatcher (its sweep in progress ends), then the bus and Prisma.
  start: ({ env, logger, prisma, bus }) => {
    const closables: Closable[] = [];
    const wallet = createRpcClient(bus, 'wallet', { timeoutMs: env.RPC_TIMEOUT_MS });
    const registry = createRpcClient(bus, 'registry', { timeoutMs: env.RPC_TIMEOUT_MS });
    const uploads = createRpcClient(bus, 'uploads', { timeoutMs: env.RPC_TIMEOUT_MS });

    // One cursor for the life of the process: each sweep reads the next page of open holds.
    const orphanHolds = new OrphanHoldScanner(
      async (olderThan, limit, after) =>
        (
          await wallet.call('openHolds', {
            older_than: olderThan.toISOString(),
            limit,
            ...(after === undefined ? {} : { after }),
          })
        ).holds,
    );
    const sweepDeps: SweepDeps = {
      prisma,
      enqueue: capabilityJobEnqueuer(bus),
      enqueueSettle: settleEnqueuer(bus),
      orphanHolds,
      publishFinished: runFinishedPublisher(bus),
      logger,
      staleAfterMs: env.RUN_STALE_AFTER_MS,
      orphanHoldAfterMs: env.ORPHAN_HOLD_AFTER_MS,
    };
    closables.push(
      startDispatcher({
        intervalMs: env.RUN_DISPATCH_INTERVAL_MS,
        logger,
        sweep: () => sweepRuns(sweepDeps),
      }),
    );
    const reports = consumeRunReports({ prisma, bus, uploads, logger });
    closables.push({ name: 'report consumer', close: () => reports.close() });

    const directory = registryDirectory(registry, env.CAPABILITY_CACHE_TTL_MS);
    const rpc = serveOrchestratorRpc({
      prisma,
      bus,
      wallet,
      uploads,
      directory,
      rpcTimeoutMs: env.RPC_TIMEOUT_MS,
      logger,
    });
    closables.push({ name: 'rpc', close: () => rpc.close() });
    // A changed catalog may change a capability's mode or price: describe again (the TTL covers a
    // lost event).
    const catalogEvents = subscribeEvents(bus, { 'catalog.changed': () => directory.clear() });
    closables.push({ name: 'catalog events', close: () => catalogEvents.close() });
    return closables;
  },
});
