import type { PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import {
  type EnqueueCapabilityJob,
  type FinishedRun,
  failStalledRuns,
  REDISPATCH_AFTER_MS,
  requeueUndispatched,
} from './dispatch';
import type { EnqueueSettle } from './settlement';
import { type OrphanHoldScanner, releaseOrphanHolds, settleUnsettledRuns } from './settlement-sweep';

export interface SweepDeps {
  prisma: PrismaClient;
  enqueue: EnqueueCapabilityJob;
  enqueueSettle: EnqueueSettle;
  /** Pages through `wallet.openHolds`; may throw when the wallet is down (logged; the next sweep tries again). */
  orphanHolds: OrphanHoldScanner;
  /** Tells waiters a run is final (`run.finished`); may throw when Redis is down (logged, not retried). */
  publishFinished(run: FinishedRun): Promise<void>;
  logger: Logger;
  /** ms: RUN_STALE_AFTER_MS. */
  staleAfterMs: number;
  /** ms: ORPHAN_HOLD_AFTER_MS, the age of a hold without a run that is released. */
  orphanHoldAfterMs: number;
  /** ms: re-queue a queued run handed over this long ago; default REDISPATCH_AFTER_MS (60 s). */
  redispatchAfterMs?: number;
  /** Clock for the orphan-hold cut-off; default: now. */
  now?: () => Date;
}

export interface SweepResult {
  queued: string[];
  failed: FinishedRun[];
  /** Paid final runs whose capture/release was queued in this pass. */
  settled: string[];
  /** Run ids of holds without a run whose release was queued in this pass. */
  orphansReleased: string[];
}

/**
 * One dispatcher pass (docs/decisions.md C11, L-D): queue runs that missed the queue, fail runs that
 * stalled, announce every run this pass made final, queue the settlement of paid final runs that
 * have none yet (those just failed included), and release holds whose run was never recorded. Safe
 * to run in several replicas at once: enqueueing dedupes on job ids, the UPDATEs are conditional and
 * the wallet applies a settlement once.
 */
export async function sweepRuns(deps: SweepDeps): Promise<SweepResult> {
  const requeued = await requeueUndispatched(deps, deps.redispatchAfterMs ?? REDISPATCH_AFTER_MS);
  if (requeued.error !== undefined) {
    deps.logger.warn({ err: requeued.error }, 'dispatcher: queue unavailable; retrying next sweep');
  }
  if (requeued.queued.length > 0) deps.logger.info({ runs: requeued.queued }, 'dispatcher: runs queued');
  const stalled = await failStalledRuns(deps.prisma, deps.staleAfterMs);
  if (stalled.length > 0) {
    deps.logger.warn({ runs: stalled.map((run) => run.run_id) }, 'dispatcher: stalled runs failed');
  }
  const failed = [...requeued.failed, ...stalled];
  for (const run of failed) {
    // Pub/sub is a hint: waiters also poll getRun, so a lost event only delays them.
    await deps.publishFinished(run).catch((err: unknown) => {
      deps.logger.warn({ run_id: run.run_id, err }, 'dispatcher: run.finished not published');
    });
  }
  const settled = await settleUnsettledRuns(deps.prisma, deps.enqueueSettle).catch((err: unknown) => {
    deps.logger.warn({ err }, 'dispatcher: settlements not queued; retrying next sweep');
    return [];
  });
  if (settled.length > 0) deps.logger.info({ runs: settled }, 'dispatcher: settlements queued');
  const now = (deps.now ?? (() => new Date()))();
  const olderThan = new Date(now.getTime() - deps.orphanHoldAfterMs);
  const orphansReleased = await releaseOrphanHolds(
    deps.prisma,
    deps.orphanHolds,
    deps.enqueueSettle,
    olderThan,
  ).catch((err: unknown) => {
    deps.logger.warn({ err }, 'dispatcher: orphan holds not checked; retrying next sweep');
    return [];
  });
  if (orphansReleased.length > 0) {
    deps.logger.warn({ runs: orphansReleased }, 'dispatcher: holds without a run released');
  }
  return { queued: requeued.queued, failed, settled, orphansReleased };
}

export interface Dispatcher {
  readonly name: string;
  /** Stops scheduling sweeps and waits for the one in progress. */
  close(): Promise<void>;
}

export interface DispatcherOptions {
  /** ms between the end of one sweep and the start of the next (RUN_DISPATCH_INTERVAL_MS). */
  intervalMs: number;
  sweep: () => Promise<unknown>;
  logger: Logger;
}

/**
 * Runs `sweep` at once (runs left over from before a restart are handled at start-up) and then
 * `intervalMs` after each sweep ends, so sweeps never overlap however long one takes. A failing
 * sweep (database down) is logged and tried again on the next tick.
 */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let closed = false;

  const tick = (): void => {
    timer = undefined;
    inFlight = options
      .sweep()
      .then(
        () => undefined,
        (err: unknown) => options.logger.error({ err }, 'dispatcher: sweep failed'),
      )
      .finally(() => {
        inFlight = undefined;
        if (!closed) timer = setTimeout(tick, options.intervalMs);
      });
  };
  tick();

  return {
    name: 'dispatcher',
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}
