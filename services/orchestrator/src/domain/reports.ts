import { capabilityDefinition } from '@svc/capabilities';
import { INTERNAL_RUN_ERROR, type RpcRequestInput, type RunError, type RunReport } from '@svc/contracts';
import { Prisma, type PrismaClient } from '@svc/db';
import { formatZodError } from '@svc/errors';
import type { Logger } from '@svc/log';
import type { StoredRun } from './run-finished';
import { RETURNING_STORED_RUN, returnedRun, statusIn } from './run-rows';
import { appliesTo, type ReportEvent, TRANSITIONS } from './transitions';

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
  /** True when this report moved the run; false for a late, repeated or unknown-run report. */
  applied: boolean;
  /** The run as stored after the report (what `run.finished` announces); undefined when no such run. */
  run: StoredRun | undefined;
}

/** Characters of a worker's error text kept as `last_error` (it is shown in status_message). */
const LAST_ERROR_MAX_CHARS = 500;

/**
 * Applies a worker's report to its run with one conditional UPDATE (transitions.ts): only a report
 * that moves the run forward changes it, so redelivered, late and out-of-order reports are no-ops.
 * A `completed` result that does not match the capability's result schema fails the run instead
 * (`internal`; the details go to the log). A `completed` report with artifacts has them registered
 * with the upload service first (decisions A1-A5): the run is never shown completed without them.
 * If registering throws, so does this (the report job fails and BullMQ retries it) and the run
 * stays as it was.
 */
export async function applyReport(deps: ApplyReportDeps, report: RunReport): Promise<ReportOutcome> {
  const { prisma, logger } = deps;
  const at = new Date(report.at);
  const attempts = Prisma.sql`attempts = GREATEST(attempts, ${report.attempt}::int)`;
  const move = (event: ReportEvent, set: Prisma.Sql) => transition(prisma, report, event, set);
  let moved: StoredRun | undefined;
  switch (report.event) {
    case 'started':
      // A new attempt clears the previous one's error (status_message no longer names it).
      moved = await move('started', Prisma.sql`started_at = ${at}, last_error = NULL, ${attempts}`);
      break;
    case 'retrying':
      logger.info(
        { run_id: report.run_id, attempt: report.attempt, err: report.error },
        'run attempt will be retried',
      );
      moved = await move(
        'retrying',
        Prisma.sql`last_error = ${report.error.slice(0, LAST_ERROR_MAX_CHARS)}, ${attempts}`,
      );
      break;
    case 'completed': {
      const run = await prisma.run.findUnique({
        where: { id: report.run_id },
        select: { slug: true, clientId: true, status: true, attempts: true },
      });
      if (!run) break;
      const problem = resultProblem(run.slug, report.result);
      if (problem !== undefined) {
        logger.error({ run_id: report.run_id, problem }, 'worker result does not match the result schema');
        moved = await move('failed', failedSet(INTERNAL_RUN_ERROR, report.metrics, at, attempts));
        break;
      }
      const artifacts = report.artifacts ?? [];
      // Only for a run this report can still complete: a final run (a redelivered report, or one
      // cancelled or failed meanwhile) gets nothing registered. A cancel landing between this read
      // and the UPDATE leaves artifacts registered for a cancelled run: harmless, they stay its own.
      if (artifacts.length > 0 && appliesTo('completed', run, report.attempt)) {
        await deps.registerArtifacts({ client_id: run.clientId, run_id: report.run_id, artifacts });
      }
      moved = await move(
        'completed',
        Prisma.sql`result = ${JSON.stringify(report.result)}::jsonb,
          metrics = COALESCE(${jsonOrNull(report.metrics)}::jsonb, metrics),
          finished_at = ${at}, ${attempts}`,
      );
      break;
    }
    case 'failed':
      moved = await move('failed', failedSet(report.error, report.metrics, at, attempts));
      break;
    case 'cancelled':
      moved = await move('cancelled', Prisma.sql`finished_at = ${at}, ${attempts}`);
      break;
  }
  if (moved !== undefined) return { applied: true, run: moved };
  // Not moved: late, repeated or unknown. The whole row, since a redelivered final report announces
  // the run again (and settles it, if that was lost).
  const current = await prisma.run.findUnique({ where: { id: report.run_id } });
  if (!current)
    logger.warn({ run_id: report.run_id, event: report.event }, 'report for an unknown run dropped');
  return { applied: false, run: current ?? undefined };
}

function failedSet(error: RunError, metrics: unknown, at: Date, attempts: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`error = ${JSON.stringify(error)}::jsonb,
    metrics = COALESCE(${jsonOrNull(metrics)}::jsonb, metrics),
    finished_at = ${at}, ${attempts}`;
}

/**
 * `UPDATE … SET status = <to>, <set> WHERE id = … AND <appliesTo in SQL>`: the run as stored after
 * the move, undefined when the event does not apply to its current state (or it does not exist).
 */
async function transition(
  prisma: PrismaClient,
  report: Pick<RunReport, 'run_id' | 'attempt'>,
  event: ReportEvent,
  set: Prisma.Sql,
): Promise<StoredRun | undefined> {
  const { to } = TRANSITIONS[event];
  const rows = await prisma.$queryRaw<unknown[]>`
    UPDATE orchestrator.runs
    SET status = ${to}::orchestrator.run_status, ${set}, updated_at = now()
    WHERE id = ${report.run_id}::uuid AND ${transitionCondition(event, report.attempt)}
    ${RETURNING_STORED_RUN}`;
  return returnedRun(rows);
}

/** transitions.ts `appliesTo` as SQL over the row's `status` and `attempts`. */
function transitionCondition(event: ReportEvent, attempt: number): Prisma.Sql {
  const { from, fromWhenNewerAttempt = [], notFromOlderAttempt } = TRANSITIONS[event];
  const moves = Prisma.sql`(${statusIn(from)} OR (${statusIn(fromWhenNewerAttempt)} AND attempts < ${attempt}::int))`;
  return notFromOlderAttempt ? Prisma.sql`${moves} AND attempts <= ${attempt}::int` : moves;
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
