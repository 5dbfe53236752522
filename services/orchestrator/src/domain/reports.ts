import { capabilityDefinition } from '@svc/capabilities';
import { INTERNAL_RUN_ERROR, type RpcRequestInput, type RunError, type RunReport } from '@svc/contracts';
import { Prisma, type PrismaClient } from '@svc/db';
import { formatZodError } from '@svc/errors';
import type { Logger } from '@svc/log';
import type { StoredRun } from './run-finished';
import { RETURNING_STORED_RUN, returnedRun, statusIn } from './run-rows';
import { appliesTo, type ReportEvent, type Reporter, TRANSITIONS } from './transitions';

/** What the upload service is asked to register (rpc `uploads.registerArtifacts`). */
export type RegisterArtifactsRequest = RpcRequestInput<'uploads', 'registerArtifacts'>;

/**
 * The upload service's `registerArtifacts`: records a run's artifacts (idempotent per run and
 * name); throws when it cannot (503 when the service is down).
 */
export type RegisterArtifacts = (request: RegisterArtifactsRequest) => Promise<void>;

export interface ApplyReportDeps {
  prisma: PrismaClient;
  registerArtifacts: RegisterArtifacts;
  logger: Logger;
}

/** What applying one report did. */
export interface ReportOutcome {
  /** True when this report moved the run; false for a late, repeated, superseded or unknown-run report. */
  applied: boolean;
  /** The run as stored after the report (what `run.finished` announces); undefined when no such run. */
  run: StoredRun | undefined;
}

/** Characters of a worker's error text kept as `last_error` (it is shown in status_message). */
const LAST_ERROR_MAX_CHARS = 500;

/**
 * Applies a worker's report (`orchestrator.reportRun`) to its run with one conditional UPDATE
 * (transitions.ts): a final outcome applies to a run not yet final, whichever claimed attempt sends
 * it (the first one wins); `retrying` only to the run's current job and attempt. Anything else
 * changes nothing, so repeated (the worker retries until answered), late and superseded reports
 * are no-ops. A `completed` result that does not match the capability's result schema fails the
 * run instead (`internal`; the details go to the log). A `completed` report with artifacts has them
 * registered with the upload service first (decisions A1-A5): the run is never shown completed
 * without them. If registering throws, so does this (the worker's call fails and it asks again) and
 * the run stays as it was.
 */
export async function applyReport(deps: ApplyReportDeps, report: RunReport): Promise<ReportOutcome> {
  const { prisma, logger } = deps;
  const at = new Date(report.at);
  const move = (event: ReportEvent, set: Prisma.Sql) => transition(prisma, report, event, set);
  let moved: StoredRun | undefined;
  switch (report.event) {
    case 'retrying':
      logger.info(
        { run_id: report.run_id, attempt: report.attempt, err: report.error },
        'run attempt will be retried',
      );
      moved = await move('retrying', Prisma.sql`last_error = ${report.error.slice(0, LAST_ERROR_MAX_CHARS)}`);
      break;
    case 'completed': {
      const run = await prisma.run.findUnique({
        where: { id: report.run_id },
        select: { slug: true, clientId: true, status: true, attempts: true, jobId: true },
      });
      if (!run) break;
      const problem = resultProblem(run.slug, report.result);
      if (problem !== undefined) {
        logger.error({ run_id: report.run_id, problem }, 'worker result does not match the result schema');
        moved = await move('failed', failedSet(INTERNAL_RUN_ERROR, report.metrics, at));
        break;
      }
      const artifacts = report.artifacts ?? [];
      // Only for a run this report can still complete: a final run (a repeated report, or one
      // cancelled or failed meanwhile) gets nothing registered. A cancel landing between this read
      // and the UPDATE leaves artifacts registered for a cancelled run: harmless, they stay its own.
      if (artifacts.length > 0 && appliesTo('completed', run, report)) {
        await deps.registerArtifacts({ client_id: run.clientId, run_id: report.run_id, artifacts });
      }
      moved = await move(
        'completed',
        Prisma.sql`result = ${JSON.stringify(report.result)}::jsonb,
          metrics = COALESCE(${jsonOrNull(report.metrics)}::jsonb, metrics),
          finished_at = ${at}`,
      );
      break;
    }
    case 'failed':
      moved = await move('failed', failedSet(report.error, report.metrics, at));
      break;
    case 'cancelled':
      moved = await move('cancelled', Prisma.sql`finished_at = ${at}`);
      break;
  }
  if (moved !== undefined) return { applied: true, run: moved };
  // Not moved: repeated, late, superseded or unknown. The whole row, since a repeated final report
  // announces the run again (and settles it, if that was lost).
  const current = await prisma.run.findUnique({ where: { id: report.run_id } });
  if (!current)
    logger.warn({ run_id: report.run_id, event: report.event }, 'report for an unknown run dropped');
  return { applied: false, run: current ?? undefined };
}

function failedSet(error: RunError, metrics: unknown, at: Date): Prisma.Sql {
  return Prisma.sql`error = ${JSON.stringify(error)}::jsonb,
    metrics = COALESCE(${jsonOrNull(metrics)}::jsonb, metrics),
    finished_at = ${at}`;
}

/**
 * `UPDATE … SET status = <to>, <set> WHERE id = … AND <appliesTo in SQL>`: the run as stored after
 * the move, undefined when the event does not apply to its current state (or it does not exist).
 */
async function transition(
  prisma: PrismaClient,
  report: Pick<RunReport, 'run_id' | 'job_id' | 'attempt'>,
  event: ReportEvent,
  set: Prisma.Sql,
): Promise<StoredRun | undefined> {
  const { to } = TRANSITIONS[event];
  const rows = await prisma.$queryRaw<unknown[]>`
    UPDATE orchestrator.runs
    SET status = ${to}::orchestrator.run_status, ${set}, updated_at = now()
    WHERE id = ${report.run_id}::uuid AND ${transitionCondition(event, report)}
    ${RETURNING_STORED_RUN}`;
  return returnedRun(rows);
}

/** transitions.ts `appliesTo` as SQL over the row's `status`, `job_id` and `attempts`. */
function transitionCondition(event: ReportEvent, reporter: Reporter): Prisma.Sql {
  const { from, currentAttemptOnly } = TRANSITIONS[event];
  if (!currentAttemptOnly) return statusIn(from);
  return Prisma.sql`${statusIn(from)} AND job_id = ${reporter.job_id} AND attempts = ${reporter.attempt}::int`;
}

/** Why `result` cannot be stored for a run of `slug`, or undefined when it can. */
export function resultProblem(slug: string, result: Record<string, unknown>): string | undefined {
  const schema = capabilityDefinition(slug)?.result;
  if (!schema) return undefined;
  const parsed = schema.safeParse(result);
  return parsed.success ? undefined : formatZodError(parsed.error);
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
