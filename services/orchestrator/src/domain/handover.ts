import { capabilityJobName } from '@svc/capabilities';
import {
  INTERNAL_RUN_ERROR,
  RUN_ERROR_CODES,
  type RunError,
  type RunState,
  WORKER_HEARTBEAT_TTL_MS,
} from '@svc/contracts';
import { Prisma, type PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import { z } from 'zod';
import { capabilityJobFor, type EnqueueCapabilityJob, MAX_DISPATCHES, runJobId } from './dispatch';
import type { HandOverProbe, JobRef } from './handover-probe';
import { RedisRestartWatch, type RestartView } from './redis-restart-watch';
import type { StoredRun } from './run-finished';
import { RETURNING_STORED_RUN, returnedRun, statusIn } from './run-rows';

export interface HandOverDeps {
  prisma: PrismaClient;
  enqueue: EnqueueCapabilityJob;
  probe: HandOverProbe;
  logger: Logger;
  /**
   * ms: a hand-over this recent is not checked yet (its job may still be on its way to Redis: the
   * row is written before the job is added). Default HAND_OVER_GRACE_MS.
   */
  graceMs?: number;
  /**
   * ms: after Redis's run_id changed (and at the process's first pass), claimed runs (running,
   * retrying) are not handed over for this long, whatever Redis says: workers re-announce the runs
   * they hold within one heartbeat. Default WORKER_HEARTBEAT_TTL_MS.
   */
  restartGraceMs?: number;
  /** Clock for the restart grace (ms since the epoch); default Date.now. */
  now?: () => number;
}

/** ms: default grace of a fresh hand-over before its job must be found in Redis. */
export const HAND_OVER_GRACE_MS = 2_000;
/** Runs checked per page (one SELECT, one pipelined Redis round trip). */
const PAGE = 500;

/** States in which a run needs its job (or a worker holds it). */
const LIVE_STATES: readonly RunState[] = ['queued', 'running', 'retrying'];

const LiveRow = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'retrying']),
  slug: z.string(),
  input: z.unknown(),
  files: z.unknown(),
  job_id: z.string().nullable(),
  dispatches: z.number().int(),
  cancel_requested: z.boolean(),
});
type LiveRow = z.infer<typeof LiveRow>;

export interface HandOverResult {
  /** Runs handed over again (a new job id) because their job was missing or finished in Redis. */
  handedOver: string[];
  /** Runs made final here (hand-overs exhausted, unreadable input, or a cancel asked meanwhile). */
  finished: StoredRun[];
  /** Claimed runs whose job is gone but which a live worker holds: left alone (it will report). */
  held: string[];
  /** Claimed runs whose job is gone, left alone because Redis restarted less than the grace ago. */
  deferred: string[];
  /** Whether this pass checked every live run (Redis restarted, or the first pass of the process). */
  full: boolean;
}

/**
 * Finds live runs whose job Redis no longer has and hands them over again at once (issue 15): Redis
 * is not the record of what should run, the runs table is. Each pass reads one page of live runs
 * (queued, running, retrying; not pending their hold) handed over more than `graceMs` ago, walking
 * the table page by page across passes, and asks Redis about all their jobs in one round trip. When
 * Redis's run_id changed (it restarted and may have lost everything), the pass walks every page at
 * once. A run whose job is missing or finished gets a new hand-over: UPDATE `dispatches + 1`, new
 * `job_id` (conditional on the hand-over it replaces, so replicas never both do it), then the job.
 * A run past MAX_DISPATCHES fails `internal` instead; one whose cancel was asked ends `cancelled`.
 * A claimed run (running, retrying) whose job is gone is left alone while a worker announces it
 * holds it (heldRunsKey), and during the restart grace (RedisRestartWatch): handing it over then
 * would compute it twice (issue 15: recorded once, executed twice).
 */
export class HandOverChecker {
  private cursor: string | undefined;
  private readonly restarts: RedisRestartWatch;

  constructor(private readonly deps: HandOverDeps) {
    this.restarts = new RedisRestartWatch(deps.restartGraceMs ?? WORKER_HEARTBEAT_TTL_MS);
  }

  async pass(): Promise<HandOverResult> {
    const redisRunId = await this.deps.probe.serverRunId();
    const view = this.restarts.begin(redisRunId, (this.deps.now ?? Date.now)());
    if (view.full) this.cursor = undefined;
    const result: HandOverResult = { handedOver: [], finished: [], held: [], deferred: [], full: view.full };
    for (;;) {
      const rows = await this.page();
      await this.check(rows, view, result);
      this.cursor = rows.length < PAGE ? undefined : rows.at(-1)?.id;
      if (!view.full || this.cursor === undefined) break;
    }
    if (view.full) this.restarts.walkedAll(view);
    // Once per Redis start (its first walk), not every pass of the grace.
    if (view.full && result.deferred.length > 0) {
      this.deps.logger.info(
        { runs: result.deferred.length, until: new Date(this.restarts.graceEndsAtMs()).toISOString() },
        'dispatcher: Redis (re)started; claimed runs whose job is gone wait for their workers to announce them',
      );
    }
    return result;
  }

  private async page(): Promise<LiveRow[]> {
    const graceMs = this.deps.graceMs ?? HAND_OVER_GRACE_MS;
    const after = this.cursor === undefined ? Prisma.empty : Prisma.sql`AND id > ${this.cursor}::uuid`;
    // The database's clock (dispatched_at is compared with now()); the status index narrows it.
    const raw = await this.deps.prisma.$queryRaw<unknown[]>`
      SELECT id::text AS id, status::text AS status, slug, input, files, job_id, dispatches,
        cancel_requested_at IS NOT NULL AS cancel_requested
      FROM orchestrator.runs
      WHERE ${statusIn(LIVE_STATES)} AND NOT hold_pending
        AND (dispatched_at IS NULL
             OR dispatched_at < now() - ${graceMs}::double precision * interval '1 millisecond')
        ${after}
      ORDER BY id
      LIMIT ${PAGE}`;
    return raw.map((row) => LiveRow.parse(row));
  }

  private async check(rows: readonly LiveRow[], view: RestartView, result: HandOverResult): Promise<void> {
    const asked: Array<{ row: LiveRow; ref: JobRef }> = [];
    const gone: LiveRow[] = [];
    for (const row of rows) {
      const name = capabilityJobName(row.slug);
      if (row.job_id === null || name === undefined) gone.push(row);
      else asked.push({ row, ref: { name, jobId: row.job_id } });
    }
    // Only a claimed run can be held (a worker announces a run from its claim to the report's ack).
    const claimed = rows.filter((row) => row.status !== 'queued').map((row) => row.id);
    // Both questions leave in the same tick: one round trip to Redis for the page.
    const [alive, held] = await Promise.all([
      this.deps.probe.jobsAlive(asked.map((a) => a.ref)),
      this.deps.probe.runsHeld(claimed),
    ]);
    const heldIds = new Set(claimed.filter((_, i) => held[i] === true));
    asked.forEach((a, i) => {
      if (alive[i] !== true) gone.push(a.row);
    });
    for (const row of gone) {
      if (heldIds.has(row.id)) {
        result.held.push(row.id);
        continue;
      }
      if (row.status !== 'queued' && view.inGrace) {
        result.deferred.push(row.id);
        continue;
      }
      const done = await this.replace(row, result);
      if (!done) return;
    }
  }

  /** Hands `row` over again, or ends it; false when the queue refused (stop: Redis is down again). */
  private async replace(row: LiveRow, result: HandOverResult): Promise<boolean> {
    const { logger } = this.deps;
    if (row.cancel_requested) {
      await this.finish(row, result, 'cancelled', null);
      return true;
    }
    if (row.dispatches >= MAX_DISPATCHES) {
      logger.error(
        { run_id: row.id, dispatches: row.dispatches },
        'dispatcher: hand-overs exhausted; run failed',
      );
      await this.finish(row, result, 'failed', exhaustedError(row.dispatches));
      return true;
    }
    let job: ReturnType<typeof capabilityJobFor>;
    try {
      job = capabilityJobFor(row);
    } catch (err) {
      logger.error({ run_id: row.id, err }, 'dispatcher: stored run cannot become a job; run failed');
      await this.finish(row, result, 'failed', INTERNAL_RUN_ERROR);
      return true;
    }
    const next = row.dispatches + 1;
    const jobId = runJobId(row.id, next);
    const moved = await this.deps.prisma.$executeRaw`
      UPDATE orchestrator.runs SET dispatches = ${next}, job_id = ${jobId}, dispatched_at = now()
      WHERE id = ${row.id}::uuid AND dispatches = ${row.dispatches} AND NOT hold_pending
        AND ${statusIn(LIVE_STATES)}`;
    // Another replica replaced it, or the run moved on (final, cancelled) since the page was read.
    if (moved !== 1) return true;
    try {
      await this.deps.enqueue({ ...job, jobId });
    } catch (err) {
      logger.warn(
        { run_id: row.id, err },
        'dispatcher: queue unavailable; the next pass hands it over again',
      );
      return false;
    }
    logger.info(
      { run_id: row.id, job_id: jobId, previous: row.job_id },
      'dispatcher: job missing; handed over again',
    );
    result.handedOver.push(row.id);
    return true;
  }

  /** Ends a live run whose job is gone (conditional on the hand-over seen, like `replace`). */
  private async finish(
    row: LiveRow,
    result: HandOverResult,
    status: 'failed' | 'cancelled',
    error: RunError | null,
  ): Promise<void> {
    const errorJson = error === null ? null : JSON.stringify(error);
    const ended = returnedRun(
      await this.deps.prisma.$queryRaw<unknown[]>`
        UPDATE orchestrator.runs
        SET status = ${status}::orchestrator.run_status, error = ${errorJson}::jsonb,
          finished_at = now(), updated_at = now()
        WHERE id = ${row.id}::uuid AND dispatches = ${row.dispatches} AND NOT hold_pending
          AND ${statusIn(LIVE_STATES)}
        ${RETURNING_STORED_RUN}`,
    );
    if (ended !== undefined) result.finished.push(ended);
  }
}

/** The error of a run whose job was lost (or failed in the queue) on every hand-over. */
export function exhaustedError(dispatches: number): RunError {
  return {
    code: RUN_ERROR_CODES.internal,
    message: `run could not be kept on a worker queue: its job was lost ${dispatches} times`,
  };
}
