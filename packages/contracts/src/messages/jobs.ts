import { z } from 'zod';
import { RUN_ERROR_CODES, type RunError } from '../run';

/**
 * Queue options of a job type, as the bus hands them to its queue (BullMQ `JobsOptions` subset).
 * Spelled here so the contracts do not depend on the transport; the bus accepts this shape.
 */
export interface JobOptions {
  /** Tries in all (1 = no retry). */
  attempts?: number;
  /** Delay between tries: `delay` in ms, `jitter` the fraction (0–1) each delay may be cut by at random. */
  backoff?: { type: 'fixed' | 'exponential'; delay?: number; jitter?: number };
  /** Retention of finished jobs: `true` removes at once, a number keeps that many, or KeptJobs. */
  removeOnComplete?: boolean | number | KeptJobs;
  removeOnFail?: boolean | number | KeptJobs;
}

/** Finished jobs kept: at most `count`, and (with `age`) none older than `age` s. */
export type KeptJobs = { count: number } | { age: number; count?: number };

/**
 * What a client is told of a fault of ours (a 500, a run failed through our fault). Defined here,
 * with the contracts, because @svc/errors depends on this package and not the reverse.
 */
export const INTERNAL_ERROR_MESSAGE = 'internal error';

/**
 * Every background job type, by name (queue `jobs.<name>`): payload and result schemas plus the
 * queue options of that job. Payloads carry ids and small scalars, and a capability's input (the
 * bus seals every payload in Redis, sealing.ts; large data lives in storage; never secrets). Results
 * are stored as they are: they never hold client data. Payloads evolve additively so jobs already queued
 * still parse. Job ids used for deduplication must not contain `:` (BullMQ rejects them).
 */
export interface JobDefinition<Payload extends z.ZodType = z.ZodType, Result extends z.ZodType = z.ZodType> {
  payload: Payload;
  result: Result;
  options: JobOptions;
  /**
   * The payload holds client data (capability input, run results): once the job has finished for
   * good its retained copy keeps no payload (issue 13, "completed and failed jobs keep no input").
   * Payloads are sealed in Redis either way (sealing.ts).
   */
  dropDataWhenFinished?: boolean;
  /** One line for docs/architecture.md's jobs table (tools/docs-gen). */
  description: string;
}

/**
 * Retry policy for transient faults: exponential backoff of at most 1 s, 2 s, 4 s, 8 s, each cut by
 * up to half at random (`jitter: 0.5`), so the retries of a burst of failures spread out instead of
 * hitting a recovering dependency together. Bad payloads skip it (UnrecoverableError).
 */
export const transientRetry = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 /* ms */, jitter: 0.5 },
} as const satisfies JobOptions;

/**
 * Finished-job retention: completed jobs are trimmed (1 h or 1,000, whichever is smaller); failed
 * ones are kept a week (at most 10,000) for inspection. Never `removeOnFail: true`. A deduplicating
 * `jobId` is only remembered while its job is retained.
 */
export const retention = {
  removeOnComplete: { age: 3_600 /* s */, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3_600 /* s */, count: 10_000 },
} as const satisfies JobDefinition['options'];

/**
 * The error of a run that failed through our fault (details only in our logs under the run id), and
 * what a failed run shows when its stored error is unreadable: clients treat it like any `internal`.
 */
export const INTERNAL_RUN_ERROR: RunError = {
  code: RUN_ERROR_CODES.internal,
  message: INTERNAL_ERROR_MESSAGE,
};

/**
 * Options of a capability job (queue `jobs.capability.<slug>`, job id `run-<run_id>-<n>`): an attempt that
 * throws (an unexpected fault, a crashed browser) is retried after 1 s, then 2 s, with jitter; a
 * worker that dies mid-attempt leaves the job to BullMQ's stalled-job recovery (docs/decisions.md L-C).
 */
export const capabilityJobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 /* ms */, jitter: 0.5 },
  ...retention,
} as const satisfies JobDefinition['options'];

/** What every capability job answers (outcomes travel as `orchestrator.reportRun` calls; `skipped`: the claim was refused). */
export const CapabilityJobResult = z.object({
  outcome: z.enum(['completed', 'failed', 'cancelled', 'skipped']),
});

/**
 * The jobs of the platform itself (not of a capability). The `capability.<slug>` jobs are derived
 * from the capability declarations (@svc/capabilities jobCatalog, with CapabilityJobResult and
 * capabilityJobOptions above).
 */
export const platformJobs = {
  /** Round trip through a job queue, for tests and `pnpm bench`. */
  'system.echo': {
    payload: z.object({ message: z.string().max(10_000) }),
    result: z.object({ message: z.string() }),
    options: { ...transientRetry, ...retention },
    description: 'Round trip through a job queue, for tests and `pnpm bench`.',
  },
  /**
   * Queue `jobs.uploads.cleanup`: a repeatable job (uploads service) that expires sessions never
   * uploaded, deletes the bytes of complete uploads no run used after their retention, and artifacts
   * past ARTIFACT_RETENTION_DAYS (when set). Idempotent: a pass only touches what is due.
   */
  'uploads.cleanup': {
    payload: z.object({}),
    result: z.object({
      expired_sessions: z.number().int().min(0),
      deleted_uploads: z.number().int().min(0),
      deleted_artifacts: z.number().int().min(0),
    }),
    options: { attempts: 1, ...retention },
    description:
      'Repeatable (uploads service): expires unused sessions, deletes unused uploads and expired artifacts.',
  },
  /**
   * Queue `jobs.vault.rewrap` (vault service, started by `pnpm admin vault rotate`): re-wraps every
   * stored data key to `target_version`, in batches, each batch idempotent (rows not yet at the
   * target), so a killed job resumes where it stopped. Never touches a value's ciphertext.
   */
  'vault.rewrap': {
    payload: z.object({ target_version: z.number().int().min(1) }),
    result: z.object({ rewrapped: z.number().int().min(0) }),
    options: { ...transientRetry, ...retention },
    description: "Vault: re-wraps every stored data key to the keyring's current version (resumable).",
  },
  /**
   * Queue `jobs.vault.sweep`: a repeatable job (vault service) that expires pending extractions past
   * their time (their candidates' ciphertexts deleted) and deletes filled documents past retention.
   */
  'vault.sweep': {
    payload: z.object({}),
    result: z.object({
      expired_extractions: z.number().int().min(0),
      deleted_documents: z.number().int().min(0),
    }),
    options: { attempts: 1, ...retention },
    description:
      'Repeatable (vault service): expires pending extractions, deletes filled documents past retention.',
  },
} as const satisfies Record<string, JobDefinition>;
