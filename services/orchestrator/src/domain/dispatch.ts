import {
  type CapabilityJobName,
  capabilityJobName,
  type JobPayloadInput,
  jobCatalog,
} from '@svc/capabilities';
import { CrtInput, INTERNAL_RUN_ERROR, RUN_ERROR_CODES, type RunError, RunState } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { z } from 'zod';
import type { RunFinishedEvent } from './run-finished';

/** Payload of a `capability.crt` job (bus job catalog): ids and small scalars only, never secrets. */
export type CrtJob = JobPayloadInput<'capability.crt'>;

/**
 * A run's job on its capability queue (`jobs.capability.<slug>`): crt keeps its own payload
 * `{run_id, apex, include_first_seen, limit}`; every other capability gets `{run_id, input}`, plus
 * `files` (the stored ResolvedFile[]) for capabilities that take files.
 */
export interface CapabilityJob {
  name: CapabilityJobName;
  payload: JobPayloadInput<CapabilityJobName>;
}

/** Adds the job to its worker queue, deduplicated by `runJobId(run_id)`; throws when Redis is down. */
export type EnqueueCapabilityJob = (job: CapabilityJob) => Promise<void>;

/** BullMQ job id of a run's capability job: one job per run, however often it is queued (no `:`). */
export function runJobId(runId: string): string {
  return `run-${runId}`;
}

/** A run as far as its job needs it. */
export interface DispatchableRun {
  id: string;
  slug: string;
  /** Stored JSON: parsed again before it becomes a job payload. */
  input: unknown;
  /** Stored JSON (ResolvedFile[], as resolved when the run was recorded); null for runs without files. */
  files?: unknown;
}

/** The job for a stored crt run. Throws TypeError when the stored input no longer parses. */
export function crtJobFor(run: DispatchableRun): CrtJob {
  if (run.slug !== 'crt') throw new TypeError(`run ${run.id} is a ${run.slug} run, not crt`);
  const input = CrtInput.safeParse(run.input);
  if (!input.success) throw new TypeError(`run ${run.id} has an invalid crt input`);
  return {
    run_id: run.id,
    apex: input.data.apex,
    include_first_seen: input.data.include_first_seen,
    limit: input.data.limit,
  };
}

/**
 * The job for a stored run of any capability a worker runs. Throws TypeError when the capability
 * has no worker queue (plan_only, describe_only, unknown) or the stored input (or files) no longer
 * parses with the job's payload schema (a file capability's job needs its files).
 */
export function capabilityJobFor(run: DispatchableRun): CapabilityJob {
  const name = capabilityJobName(run.slug);
  if (name === undefined) throw new TypeError(`run ${run.id}: capability ${run.slug} has no worker queue`);
  if (name === 'capability.crt') return { name, payload: crtJobFor(run) };
  const files = run.files === undefined || run.files === null ? {} : { files: run.files };
  const payload = jobCatalog[name].payload.safeParse({ run_id: run.id, input: run.input, ...files });
  if (!payload.success) throw new TypeError(`run ${run.id} has an invalid ${run.slug} input`);
  return { name, payload: payload.data };
}

/** Records that the run's job was handed to the queue (not a state change: updated_at stays). */
export async function markDispatched(prisma: PrismaClient, runId: string): Promise<void> {
  await prisma.$executeRaw`UPDATE orchestrator.runs SET dispatched_at = now() WHERE id = ${runId}::uuid`;
}

/** A run that reached a final state in a sweep: whoever waits on it is told (`run.finished`). */
export type FinishedRun = Pick<RunFinishedEvent, 'run_id' | 'status'>;

const FinishedRow = z.object({ id: z.string(), status: RunState });
const PendingRow = z.object({ id: z.string(), slug: z.string(), input: z.unknown(), files: z.unknown() });

/** ms: a queued run handed to the queue this long ago without starting is queued again (C11). */
export const REDISPATCH_AFTER_MS = 60_000;
/** Runs looked at per sweep: a backlog drains over several sweeps instead of one long one. */
const SWEEP_BATCH = 100;

export interface RequeueDeps {
  prisma: PrismaClient;
  enqueue: EnqueueCapabilityJob;
}

export interface RequeueResult {
  /** Runs handed to the queue (again). */
  queued: string[];
  /** Runs whose stored input could not become a job: failed as `internal`. */
  failed: FinishedRun[];
  /** The first enqueue error, when Redis is down; the sweep stops there and the next one retries. */
  error?: unknown;
}

/**
 * Queues runs (of every capability with a worker queue) that are `queued` but were never handed to the queue (Redis was down after their
 * commit) or were handed over more than REDISPATCH_AFTER_MS ago (the job may have been lost with a
 * Redis failure). Enqueueing is idempotent: the job id `run-<id>` dedupes a job still in Redis.
 */
export async function requeueUndispatched(
  deps: RequeueDeps,
  redispatchAfterMs = REDISPATCH_AFTER_MS,
): Promise<RequeueResult> {
  // The database's clock throughout (dispatched_at is set with now()): no skew with ours.
  const raw = await deps.prisma.$queryRaw<unknown[]>`
    SELECT id::text AS id, slug, input, files FROM orchestrator.runs
    WHERE status = 'queued'
      AND (dispatched_at IS NULL
           OR dispatched_at < now() - ${redispatchAfterMs}::double precision * interval '1 millisecond')
    ORDER BY created_at
    LIMIT ${SWEEP_BATCH}`;
  const rows = raw.map((row) => PendingRow.parse(row));
  const result: RequeueResult = { queued: [], failed: [] };
  for (const row of rows) {
    let job: CapabilityJob;
    try {
      job = capabilityJobFor(row);
    } catch {
      result.failed.push(...(await failQueuedRun(deps.prisma, row.id)));
      continue;
    }
    try {
      await deps.enqueue(job);
    } catch (err) {
      result.error = err;
      return result;
    }
    await markDispatched(deps.prisma, row.id);
    result.queued.push(row.id);
  }
  return result;
}

/** Fails a queued run that can never become a job (its stored input is unreadable). */
async function failQueuedRun(prisma: PrismaClient, runId: string): Promise<FinishedRun[]> {
  const rows = await prisma.$queryRaw<unknown[]>`
    UPDATE orchestrator.runs
    SET status = 'failed', error = ${JSON.stringify(INTERNAL_RUN_ERROR)}::jsonb, finished_at = now(), updated_at = now()
    WHERE id = ${runId}::uuid AND status = 'queued'
    RETURNING id::text AS id, status::text AS status`;
  return toFinished(rows);
}

/** The error a stalled run is failed with; the message gives the threshold in seconds. */
export function stalledRunError(staleAfterMs: number): RunError {
  return {
    code: RUN_ERROR_CODES.internal,
    message: `run stalled: no report from a worker within ${Math.round(staleAfterMs / 1000)} s`,
  };
}

/**
 * Fails runs stuck in `running`/`retrying` whose last state change is older than `staleAfterMs`
 * (a worker died mid-run and BullMQ gave up, or its reports were lost). A report arriving later
 * changes nothing: the run is final.
 */
export async function failStalledRuns(prisma: PrismaClient, staleAfterMs: number): Promise<FinishedRun[]> {
  const error = stalledRunError(staleAfterMs);
  const rows = await prisma.$queryRaw<unknown[]>`
    UPDATE orchestrator.runs
    SET status = 'failed', error = ${JSON.stringify(error)}::jsonb, finished_at = now(), updated_at = now()
    WHERE status IN ('running', 'retrying')
      AND updated_at < now() - ${staleAfterMs}::double precision * interval '1 millisecond'
    RETURNING id::text AS id, status::text AS status`;
  return toFinished(rows);
}

function toFinished(rows: unknown[]): FinishedRun[] {
  return rows.map((row) => {
    const parsed = FinishedRow.parse(row);
    return { run_id: parsed.id, status: parsed.status };
  });
}
