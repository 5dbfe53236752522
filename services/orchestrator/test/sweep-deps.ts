import { type Bus, serviceClient } from '@svc/bus';
import type { MessageCatalog } from '@svc/capabilities';
import { capabilityJobEnqueuer, handOverProbe } from '../src/adapters/capability-queue';
import { createSweep, type Sweep, type SweepDeps } from '../src/domain/dispatcher';
import { OrphanHoldScanner } from '../src/domain/settlement-sweep';
import { fileResolver, runFinishedPublisher, walletSettler } from '../src/handlers/bus-ports';
import { type InProcessHarness, WALLET_TIMEOUT_MS } from './harness';

/**
 * The dispatcher's dependencies as main.ts wires them, on the harness's real wallet and uploads
 * clients; its queue side on `bus` (default the harness's). No grace for fresh hand-overs, pending
 * runs or claimed runs after a Redis (re)start: a test sweeps exactly when it means to.
 */
export function sweepDeps(
  h: InProcessHarness,
  bus: Bus<MessageCatalog> = h.bus,
  extra: Partial<SweepDeps> = {},
): SweepDeps {
  return {
    prisma: h.prisma,
    holdForRun: (request) => h.wallet.holdForRun(request),
    resolveFiles: fileResolver(serviceClient(h.bus, 'uploads', { timeoutMs: WALLET_TIMEOUT_MS })),
    enqueue: capabilityJobEnqueuer(bus),
    probe: handOverProbe(bus),
    publishFinished: runFinishedPublisher(h.bus),
    settle: walletSettler(h.wallet),
    logger: h.log.logger,
    orphanHolds: new OrphanHoldScanner(
      async (olderThan, limit, after) =>
        (
          await h.wallet.openHolds({
            older_than: olderThan.toISOString(),
            limit,
            ...(after === undefined ? {} : { after }),
          })
        ).holds,
    ),
    orphanHoldAfterMs: 600_000,
    handOverGraceMs: 0,
    pendingAfterMs: 0,
    restartGraceMs: 0,
    ...extra,
  };
}

/** One dispatcher pass (a fresh sweep: its first pass checks every live run against Redis). */
export function sweepOnce(h: InProcessHarness, extra: Partial<SweepDeps> = {}): ReturnType<Sweep> {
  return createSweep(sweepDeps(h, h.bus, extra))();
}
