// Orchestrator process: owns the runs (schema `orchestrator`). Answers `rpc.orchestrator` (quote,
// startRun, startCrtRun, getRun, cancelRun, receipt, and the workers' claimAttempt and reportRun:
// a completed run's artifacts are registered with `rpc.uploads` first), queues runs for workers,
// resolves the uploads a quote or run input names (`rpc.uploads`), publishes `run.finished`, settles
// paid final runs with `wallet.settle`, and sweeps for undispatched, stalled and unsettled runs and
// orphan holds (docs/decisions.md C11, L-A..L-D; issue 15).
// Wiring only (defineService: env → logger → prisma → bus → start → health server): dispatcher →
// RPC → catalog events.
import { serviceClient, subscribeEvents } from '@svc/bus';
import { messageCatalog } from '@svc/capabilities';
import { type Closable, defineService } from '@svc/service-kit';
import { capabilityJobEnqueuer, handOverProbe } from './adapters/capability-queue';
import { registerQueueMetrics } from './adapters/queue-metrics';
import { createSweep, startDispatcher } from './domain/dispatcher';
import { OrphanHoldScanner } from './domain/settlement-sweep';
import { loadOrchestratorEnv } from './env';
import { fileResolver, runFinishedPublisher, walletSettler } from './handlers/bus-ports';
import { registryDirectory, serveOrchestratorRpc } from './handlers/rpc';

defineService({
  name: 'orchestrator',
  env: loadOrchestratorEnv,
  // The derived job catalog (@svc/capabilities): it queues every capability's jobs.
  needs: { database: true, bus: { catalog: messageCatalog } },
  // Creation order; closed in reverse after the health server: catalog subscription, RPC responder
  // (no new runs, no more claims or reports), dispatcher (its sweep in progress ends), then the bus and Prisma.
  start: ({ env, logger, prisma, bus, metrics }) => {
    const closables: Closable[] = [];
    // Each capability queue's depth and oldest wait on /metrics, from one replica at a time.
    registerQueueMetrics(bus, metrics);
    const wallet = serviceClient(bus, 'wallet', { timeoutMs: env.RPC_TIMEOUT_MS });
    const registry = serviceClient(bus, 'registry', { timeoutMs: env.RPC_TIMEOUT_MS });
    const uploads = serviceClient(bus, 'uploads', { timeoutMs: env.RPC_TIMEOUT_MS });

    // One cursor for the life of the process: each sweep reads the next page of open holds.
    const orphanHolds = new OrphanHoldScanner(
      async (olderThan, limit, after) =>
        (
          await wallet.openHolds({
            older_than: olderThan.toISOString(),
            limit,
            ...(after === undefined ? {} : { after }),
          })
        ).holds,
    );
    const sweep = createSweep({
      prisma,
      holdForRun: wallet.holdForRun,
      resolveFiles: fileResolver(uploads),
      enqueue: capabilityJobEnqueuer(bus),
      probe: handOverProbe(bus),
      publishFinished: runFinishedPublisher(bus),
      settle: walletSettler(wallet),
      orphanHolds,
      orphanHoldAfterMs: env.ORPHAN_HOLD_AFTER_MS,
      logger,
    });
    closables.push(startDispatcher({ intervalMs: env.RUN_DISPATCH_INTERVAL_MS, logger, sweep }));
    const directory = registryDirectory(registry, env.CAPABILITY_CACHE_TTL_MS);
    const rpc = serveOrchestratorRpc({
      prisma,
      bus,
      wallet,
      uploads,
      directory,
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
