import {
  type CapabilityJobName,
  capabilityJobName,
  type JobPayloadInput,
  jobCatalog,
} from '@svc/capabilities';
import { CrtInput } from '@svc/contracts';

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

/** A job of one hand-over: added under the run's current `job_id`. */
export interface HandedOverJob extends CapabilityJob {
  /** BullMQ job id: the run's `job_id` column (runJobId). */
  jobId: string;
}

/** Adds the job to its worker queue under `job.jobId`; throws when Redis is down. */
export type EnqueueCapabilityJob = (job: HandedOverJob) => Promise<void>;

/**
 * BullMQ job id of a run's `dispatch`-th hand-over (the `job_id` column): a new id per hand-over, so
 * a job lost or failed in Redis is replaced at once (a retained failed job would block its own id
 * for a week) and a worker holding a superseded job is refused by claimAttempt. No `:` (BullMQ).
 */
export function runJobId(runId: string, dispatch: number): string {
  return `run-${runId}-${dispatch}`;
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

/** Every hand-over a run may have: one more fails it `internal` (a job lost or failed again and again). */
export const MAX_DISPATCHES = 5;
