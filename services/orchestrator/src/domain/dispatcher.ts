import type { Logger } from '@svc/log';
import { HandOverChecker } from './handover';
import type { HandOverProbe } from './handover-probe';
import { announceFinal, type PendingHoldDeps } from './pending-hold';
import { confirmPendingRuns } from './pending-sweep';
import { type OrphanHoldScanner, redriveSettlements, releaseOrphanHolds } from './settlement-sweep';

export interface SweepDeps extends PendingHoldDeps {
  /** Redis's view of the jobs (exists / finished) and its run_id (adapters/capability-queue.ts). */
  probe: HandOverProbe;
  /** Pages through `wallet.openHolds`; may throw when the wallet is down (logged; the next sweep tries again). */
  orphanHolds: OrphanHoldScanner;
  /** ms: ORPHAN_HOLD_AFTER_MS, the age of a hold without a run that is released. */
  orphanHoldAfterMs: number;
  /** ms: a run pending its hold this long is finished or undone here; default PENDING_AFTER_MS (pending-sweep.ts). */
  pendingAfterMs?: number;
  /** ms: a hand-over this recent is not checked against Redis yet; default HAND_OVER_GRACE_MS. */
  handOverGraceMs?: number;
  /**
   * ms: after a Redis restart (and at start-up) claimed runs whose job is gone wait this long for a
   * worker to announce it holds them; default WORKER_HEARTBEAT_TTL_MS (handover.ts).
   */
  restartGraceMs?: number;
  /** Clock for the orphan-hold and pending cut-offs and the restart grace; default: now. */
  now?: () => Date;
}

export interface SweepResult {
  /** Pending runs whose hold this pass confirmed, and those the wallet refused (deleted). */
  confirmed: string[];
  undone: string[];
  /** Runs handed over again because their job was missing (or finished) in Redis. */
  handedOver: string[];
  /** Runs made final by this pass (hand-overs exhausted, cancel asked, unreadable input). */
  finished: string[];
  /** Whether the hand-over check covered every live run (Redis restarted, or first pass). */
  fullCheck: boolean;
  /** Claimed runs whose job is gone, left alone because a live worker announces it holds them. */
  held: string[];
  /** Claimed runs whose job is gone, left alone until the restart grace ends. */
  deferred: string[];
  /** Paid final runs whose settlement the wallet confirmed in this pass. */
  settled: string[];
  /** Run ids of holds without a run released in this pass. */
  orphansReleased: string[];
}

export type Sweep = () => Promise<SweepResult>;

/**
 * One dispatcher (issue 15; docs/decisions.md C11, L-D): each pass (1) finishes or undoes runs left
 * pending their hold, (2) hands over again every live run whose job Redis lost and no live worker
 * holds (checked against Redis in batches, all at once after a Redis restart), failing a run whose
 * hand-overs ran out, and announces and settles the runs it made final, (3) re-drives unconfirmed
 * settlements of paid final runs and (4) releases holds whose run was never recorded. A failing step
 * (a store down) is logged and the next steps still run. Safe in several replicas at once: every
 * UPDATE is conditional on the state it read, holds and settlements are idempotent in the wallet.
 * The returned function keeps the hand-over check's place and what it saw of Redis's run_id between
 * passes: make one per process.
 */
export function createSweep(deps: SweepDeps): Sweep {
  const handOvers = new HandOverChecker({
    prisma: deps.prisma,
    enqueue: deps.enqueue,
    probe: deps.probe,
    logger: deps.logger,
    ...(deps.handOverGraceMs === undefined ? {} : { graceMs: deps.handOverGraceMs }),
    ...(deps.restartGraceMs === undefined ? {} : { restartGraceMs: deps.restartGraceMs }),
    now: () => (deps.now ?? (() => new Date()))().getTime(),
  });
  const { logger } = deps;
  return async () => {
    const now = (deps.now ?? (() => new Date()))();
    const result: SweepResult = {
      confirmed: [],
      undone: [],
      handedOver: [],
      finished: [],
      fullCheck: false,
      held: [],
      deferred: [],
      settled: [],
      orphansReleased: [],
    };
    const pending = await confirmPendingRuns(deps, deps.pendingAfterMs, now).catch((err: unknown) => {
      logger.warn({ err }, 'dispatcher: pending runs not checked; retrying next sweep');
      return { confirmed: [], undone: [] };
    });
    result.confirmed = pending.confirmed;
    result.undone = pending.undone;
    if (pending.confirmed.length > 0)
      logger.info({ runs: pending.confirmed }, 'dispatcher: pending runs confirmed');

    const checked = await handOvers.pass().catch((err: unknown) => {
      logger.warn(
        { err },
        'dispatcher: jobs not checked (queue or database unavailable); retrying next sweep',
      );
      return undefined;
    });
    if (checked !== undefined) {
      result.handedOver = checked.handedOver;
      result.fullCheck = checked.full;
      result.held = checked.held;
      result.deferred = checked.deferred;
      for (const run of checked.finished) {
        await announceFinal(deps, run);
        result.finished.push(run.id);
      }
    }

    result.settled = await redriveSettlements(deps).catch((err: unknown) => {
      logger.warn({ err }, 'dispatcher: settlements not re-driven; retrying next sweep');
      return [];
    });
    if (result.settled.length > 0) logger.info({ runs: result.settled }, 'dispatcher: settlements confirmed');

    const olderThan = new Date(now.getTime() - deps.orphanHoldAfterMs);
    result.orphansReleased = await releaseOrphanHolds(
      deps.prisma,
      deps.orphanHolds,
      deps.settle,
      olderThan,
    ).catch((err: unknown) => {
      logger.warn({ err }, 'dispatcher: orphan holds not checked; retrying next sweep');
      return [];
    });
    if (result.orphansReleased.length > 0) {
      logger.warn({ runs: result.orphansReleased }, 'dispatcher: holds without a run released');
    }
    return result;
  };
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
