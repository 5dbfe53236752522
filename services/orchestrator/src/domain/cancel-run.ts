import { isTerminalRunState, type RpcResponseInput } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { ConflictError } from '@svc/errors';
import type { Logger } from '@svc/log';
import { findOwnRun } from './get-run';
import { announceFinalRun, type FinalRunDeps, type StoredRun } from './run-finished';
import { toRunRecord } from './run-record';
import { RETURNING_STORED_RUN, returnedRun } from './run-rows';

export type CancelRunResult = RpcResponseInput<'orchestrator', 'cancelRun'>;

export interface CancelRunDeps extends FinalRunDeps {
  prisma: PrismaClient;
  /** Removes the run's job `jobId` if still waiting or delayed; false when it is active or gone. Best effort. */
  removeQueuedJob(slug: string, jobId: string): Promise<boolean>;
  /** Publishes `run.cancel-requested` (the worker holding the job aborts it); throws 503 when Redis is down. */
  publishCancelRequested(runId: string): Promise<void>;
  logger: Logger;
}

/**
 * Rounds before giving up on a run that keeps changing state under the cancel (queued → running, or
 * running ⇄ retrying between attempts); each lost round means the run moved on.
 */
const MAX_ROUNDS = 5;

/**
 * `orchestrator.cancelRun` (spec §3, §4.10; docs/decisions.md L-B). All in the database, so a job
 * taken in this instant is refused by its claim (claim-attempt.ts), which row locks order against
 * these UPDATEs:
 * - queued/retrying → `cancelled` at once (conditional UPDATE); the waiting job is removed, waiters
 *   are told (`run.finished`) and a paid run's hold is released;
 * - running → `cancel_requested_at` is set (once) and `run.cancel-requested` published: cancellation
 *   is cooperative, the run ends `cancelled` when its handler stops (or `completed` if it got there
 *   first); if its worker died, the job's next claim cancels it;
 * - final → 409. Another client's run is the same 404 as a missing one.
 */
export async function cancelRun(
  deps: CancelRunDeps,
  clientId: string,
  runId: string,
): Promise<CancelRunResult> {
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    const run = await findOwnRun(deps.prisma, clientId, runId);
    if (isTerminalRunState(run.status)) {
      throw new ConflictError(
        `run ${runId} is already ${run.status}; only queued, retrying or running runs can be cancelled`,
      );
    }
    // Its hold may be in flight: a release before the hold lands would leave the hold open for good.
    if (run.holdPending) {
      throw new ConflictError(`run ${runId} is still being recorded; try again in a moment`);
    }
    // The UPDATEs and the worker's cancel event name the run by its internal id (decisions C16).
    if (run.status === 'running') {
      const requested = await requestCancel(deps.prisma, run.id);
      if (requested === undefined) continue;
      await deps.publishCancelRequested(run.id);
      return { outcome: 'cancel_requested', run: toRunRecord(requested) };
    }
    const cancelled = await cancelWaiting(deps.prisma, run.id);
    if (cancelled === undefined) continue;
    await afterCancelled(deps, cancelled);
    return { outcome: 'cancelled', run: toRunRecord(cancelled) };
  }
  throw new ConflictError(`run ${runId} kept changing state during the cancel; try again`);
}

/** queued/retrying → cancelled; undefined when the run was in neither state any more. */
async function cancelWaiting(prisma: PrismaClient, runId: string): Promise<StoredRun | undefined> {
  return returnedRun(
    await prisma.$queryRaw<unknown[]>`
      UPDATE orchestrator.runs
      SET status = 'cancelled'::orchestrator.run_status, finished_at = now(),
        cancel_requested_at = COALESCE(cancel_requested_at, now()), updated_at = now()
      WHERE id = ${runId}::uuid AND NOT hold_pending
        AND status IN ('queued'::orchestrator.run_status, 'retrying'::orchestrator.run_status)
      ${RETURNING_STORED_RUN}`,
  );
}

/**
 * Marks a running run's cancellation as requested (the first request's time is kept). updated_at is
 * left alone: it is the last state change, which the stalled-run sweep measures.
 */
async function requestCancel(prisma: PrismaClient, runId: string): Promise<StoredRun | undefined> {
  return returnedRun(
    await prisma.$queryRaw<unknown[]>`
      UPDATE orchestrator.runs SET cancel_requested_at = COALESCE(cancel_requested_at, now())
      WHERE id = ${runId}::uuid AND NOT hold_pending AND status = 'running'::orchestrator.run_status
      ${RETURNING_STORED_RUN}`,
  );
}

/** Best-effort follow-ups of a cancelled run: the run is final in the database whatever happens here. */
async function afterCancelled(deps: CancelRunDeps, run: StoredRun): Promise<void> {
  if (run.jobId !== null) {
    await deps.removeQueuedJob(run.slug, run.jobId).catch((err: unknown) => {
      // A job left behind is refused by its claim: the run is cancelled.
      deps.logger.warn({ run_id: run.id, err }, 'cancelled run: job not removed');
    });
  }
  await announceFinalRun(deps, run);
}
