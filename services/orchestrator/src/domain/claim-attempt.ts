import type { RpcResponseInput } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { z } from 'zod';
import type { StoredRun } from './run-finished';
import { RETURNING_STORED_RUN, returnedRun, statusIn } from './run-rows';
import { NON_TERMINAL_STATES } from './transitions';

export type ClaimAnswer = RpcResponseInput<'orchestrator', 'claimAttempt'>;

/** What a claim did: the answer for the worker, and the run if the claim itself made it final. */
export interface ClaimOutcome {
  answer: ClaimAnswer;
  /** Set when the claim cancelled a run whose cancel was requested (announce and release it). */
  finished?: StoredRun;
}

/** Rounds before giving up on a run that keeps changing under the claim (each lost round: it moved). */
const MAX_ROUNDS = 3;

const PositionRow = z.object({
  status: z.string(),
  job_id: z.string().nullable(),
  cancel_requested: z.boolean(),
  hold_pending: z.boolean(),
});

const AttemptRow = z.object({ attempts: z.number().int() });

/**
 * `orchestrator.claimAttempt` (issue 15; transitions.ts): the job `jobId` may run `runId` only while
 * it is the run's current hand-over (`job_id`), the run is not final, its hold is confirmed and no
 * cancel is requested. One conditional UPDATE moves it to `running` and counts the attempt
 * (attempts + 1, started_at, the previous attempt's error cleared): its answer is the attempt the
 * worker's reports carry. Otherwise the worker is told why not (`final`, `cancelled`, `superseded`,
 * `unknown`) and does not run the capability, so a job left over in Redis (a superseded hand-over,
 * a retry of a run already recorded) never runs an attempt whose result is recorded.
 *
 * A run whose cancel was requested while it was running, claimed again by its current job (its
 * worker died, or the job was retried), is cancelled here: no worker is running it any more.
 */
export async function claimAttempt(
  prisma: PrismaClient,
  runId: string,
  jobId: string,
): Promise<ClaimOutcome> {
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    const claimed = await prisma.$queryRaw<unknown[]>`
      UPDATE orchestrator.runs
      SET status = 'running'::orchestrator.run_status, attempts = attempts + 1, started_at = now(),
        last_error = NULL, updated_at = now()
      WHERE id = ${runId}::uuid AND job_id = ${jobId} AND NOT hold_pending
        AND cancel_requested_at IS NULL AND ${statusIn(NON_TERMINAL_STATES)}
      RETURNING attempts`;
    const row = claimed[0];
    if (row !== undefined) return { answer: { go: true, attempt: AttemptRow.parse(row).attempts } };

    const found = await prisma.$queryRaw<unknown[]>`
      SELECT status::text AS status, job_id, cancel_requested_at IS NOT NULL AS cancel_requested,
        hold_pending
      FROM orchestrator.runs WHERE id = ${runId}::uuid`;
    if (found[0] === undefined) return { answer: { go: false, reason: 'unknown' } };
    const position = PositionRow.parse(found[0]);
    if (position.status === 'cancelled') return { answer: { go: false, reason: 'cancelled' } };
    if (position.status === 'completed' || position.status === 'failed') {
      return { answer: { go: false, reason: 'final' } };
    }
    // Not the current hand-over (or none confirmed yet: the hold is pending).
    if (position.job_id !== jobId || position.hold_pending)
      return { answer: { go: false, reason: 'superseded' } };
    if (position.cancel_requested) {
      const cancelled = await cancelRequested(prisma, runId, jobId);
      if (cancelled !== undefined) return { answer: { go: false, reason: 'cancelled' }, finished: cancelled };
    }
    // The run moved between the UPDATE and the read: look again.
  }
  throw new Error(`run ${runId} kept changing state during the claim; the worker asks again`);
}

/** A non-final run of `jobId` with a cancel requested → cancelled; undefined when it moved meanwhile. */
async function cancelRequested(
  prisma: PrismaClient,
  runId: string,
  jobId: string,
): Promise<StoredRun | undefined> {
  return returnedRun(
    await prisma.$queryRaw<unknown[]>`
      UPDATE orchestrator.runs
      SET status = 'cancelled'::orchestrator.run_status, finished_at = now(), updated_at = now()
      WHERE id = ${runId}::uuid AND job_id = ${jobId} AND cancel_requested_at IS NOT NULL
        AND ${statusIn(NON_TERMINAL_STATES)}
      ${RETURNING_STORED_RUN}`,
  );
}
