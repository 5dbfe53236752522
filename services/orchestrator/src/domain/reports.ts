import { INTERNAL_RUN_ERROR, type RunReport } from '@svc/bus';
import { CrtResult, type RunError, RunState } from '@svc/contracts';
import { Prisma, type PrismaClient } from '@svc/db';
import { formatZodError } from '@svc/errors';
import type { Logger } from '@svc/log';
import { z } from 'zod';
import type { StoredRun } from './run-finished';
import { type ReportEvent, TRANSITIONS } from './transitions';

/** What applying one report did. */
export interface ReportOutcome {
  /** True when this report moved the run; false for a late, repeated or unknown-run report. */
  applied: boolean;
  /** The run as stored after the report (what `run.finished` announces); undefined when no such run. */
  run: StoredRun | undefined;
}

/** Result schema per capability: a result that breaks it is never stored or shown (spec §2.6). */
const RESULT_SCHEMAS: Readonly<Record<string, z.ZodType>> = { crt: CrtResult };

/**
 * Applies a worker's report to its run with one conditional UPDATE (transitions.ts): only a report
 * that moves the run forward changes it, so redelivered, late and out-of-order reports are no-ops.
 * A `completed` result that does not match the capability's result schema fails the run instead
 * (`internal`; the details go to the log).
 */
export async function applyReport(
  prisma: PrismaClient,
  report: RunReport,
  logger: Logger,
): Promise<ReportOutcome> {
  const at = new Date(report.at);
  const attempts = Prisma.sql`attempts = GREATEST(attempts, ${report.attempt}::int)`;
  let moved: StoredRun | undefined;
  switch (report.event) {
    case 'started':
      moved = await transition(prisma, report.run_id, 'started', Prisma.sql`started_at = ${at}, ${attempts}`);
      break;
    case 'retrying':
      // The error text is the worker's (logged there and here); the run shows no error until final.
      logger.info(
        { run_id: report.run_id, attempt: report.attempt, err: report.error },
        'run attempt will be retried',
      );
      moved = await transition(prisma, report.run_id, 'retrying', attempts);
      break;
    case 'completed': {
      const run = await prisma.run.findUnique({ where: { id: report.run_id }, select: { slug: true } });
      if (!run) break;
      const problem = resultProblem(run.slug, report.result);
      if (problem !== undefined) {
        logger.error({ run_id: report.run_id, problem }, 'worker result does not match the result schema');
        moved = await fail(prisma, report.run_id, INTERNAL_RUN_ERROR, report.metrics, at, attempts);
        break;
      }
      moved = await transition(
        prisma,
        report.run_id,
        'completed',
        Prisma.sql`result = ${JSON.stringify(report.result)}::jsonb,
          metrics = COALESCE(${jsonOrNull(report.metrics)}::jsonb, metrics),
          finished_at = ${at}, ${attempts}`,
      );
      break;
    }
    case 'failed':
      moved = await fail(prisma, report.run_id, report.error, report.metrics, at, attempts);
      break;
  }
  if (moved !== undefined) return { applied: true, run: moved };
  // Not moved: late, repeated or unknown. The whole row, since a redelivered final report announces
  // the run again.
  const current = await prisma.run.findUnique({ where: { id: report.run_id } });
  if (!current)
    logger.warn({ run_id: report.run_id, event: report.event }, 'report for an unknown run dropped');
  return { applied: false, run: current ?? undefined };
}

function fail(
  prisma: PrismaClient,
  runId: string,
  error: RunError,
  metrics: unknown,
  at: Date,
  attempts: Prisma.Sql,
): Promise<StoredRun | undefined> {
  return transition(
    prisma,
    runId,
    'failed',
    Prisma.sql`error = ${JSON.stringify(error)}::jsonb,
      metrics = COALESCE(${jsonOrNull(metrics)}::jsonb, metrics),
      finished_at = ${at}, ${attempts}`,
  );
}

/** What `transition` reads back: the columns of a RunRecord and the owner (raw SQL: snake_case). */
const ReturnedRow = z
  .object({
    id: z.string(),
    client_id: z.string(),
    status: RunState,
    slug: z.string(),
    client_type: z.string(),
    quote_id: z.string().nullable(),
    created_at: z.date(),
    updated_at: z.date(),
    started_at: z.date().nullable(),
    finished_at: z.date().nullable(),
    result: z.unknown(),
    error: z.unknown(),
  })
  .transform(
    (row): StoredRun => ({
      id: row.id,
      clientId: row.client_id,
      status: row.status,
      slug: row.slug,
      clientType: row.client_type,
      quoteId: row.quote_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      result: row.result,
      error: row.error,
    }),
  );

/**
 * `UPDATE … SET status = <to>, <set> WHERE id = … AND status IN (<from>)`: the run as stored after
 * the move (RETURNING, so announcing it costs no second query), undefined when it was in no state
 * the event applies from (or does not exist).
 */
async function transition(
  prisma: PrismaClient,
  runId: string,
  event: ReportEvent,
  set: Prisma.Sql,
): Promise<StoredRun | undefined> {
  const { to, from } = TRANSITIONS[event];
  const rows = await prisma.$queryRaw<unknown[]>`
    UPDATE orchestrator.runs
    SET status = ${to}::orchestrator.run_status, ${set}, updated_at = now()
    WHERE id = ${runId}::uuid
      AND status IN (${Prisma.join(from.map((state) => Prisma.sql`${state}::orchestrator.run_status`))})
    RETURNING id::text AS id, client_id::text AS client_id, status::text AS status, slug, client_type,
      quote_id::text AS quote_id, created_at, updated_at, started_at, finished_at, result, error`;
  const row = rows[0];
  return row === undefined ? undefined : ReturnedRow.parse(row);
}

/** Why `result` cannot be stored for a run of `slug`, or undefined when it can. */
export function resultProblem(slug: string, result: Record<string, unknown>): string | undefined {
  const schema = RESULT_SCHEMAS[slug];
  if (!schema) return undefined;
  const parsed = schema.safeParse(result);
  return parsed.success ? undefined : formatZodError(parsed.error);
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
