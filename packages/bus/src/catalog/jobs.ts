import type { JobsOptions } from 'bullmq';
import { z } from 'zod';

/**
 * Every background job type, by name (queue `jobs.<name>`): payload and result schemas plus the
 * queue options of that job. Payloads carry ids and small scalars only (the handler reloads state;
 * large data lives in storage; never secrets). Payloads evolve additively so jobs already queued
 * still parse. Job ids used for deduplication must not contain `:` (BullMQ rejects them).
 */
export interface JobDefinition<Payload extends z.ZodType = z.ZodType, Result extends z.ZodType = z.ZodType> {
  payload: Payload;
  result: Result;
  options: Pick<JobsOptions, 'attempts' | 'backoff' | 'removeOnComplete' | 'removeOnFail'>;
}

/**
 * Retry policy for transient faults: exponential backoff of at most 1 s, 2 s, 4 s, 8 s, each cut by
 * up to half at random (`jitter: 0.5`), so the retries of a burst of failures spread out instead of
 * hitting a recovering dependency together. Bad payloads skip it (UnrecoverableError).
 */
const transientRetry = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 /* ms */, jitter: 0.5 },
} as const satisfies JobDefinition['options'];

/**
 * Finished-job retention: completed jobs are trimmed (1 h or 1,000, whichever is smaller); failed
 * ones are kept a week (at most 10,000) for inspection. Never `removeOnFail: true`. A deduplicating
 * `jobId` is only remembered while its job is retained.
 */
const retention = {
  removeOnComplete: { age: 3_600 /* s */, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3_600 /* s */, count: 10_000 },
} as const satisfies JobDefinition['options'];

export const jobCatalog = {
  /** Round trip through a job queue, for tests and `pnpm bench`. */
  'system.echo': {
    payload: z.object({ message: z.string().max(10_000) }),
    result: z.object({ message: z.string() }),
    options: { ...transientRetry, ...retention },
  },
} as const satisfies Record<string, JobDefinition>;

export type JobCatalog = typeof jobCatalog;
export type JobName = keyof JobCatalog;
export type JobPayloadInput<N extends JobName> = z.input<JobCatalog[N]['payload']>;
export type JobPayload<N extends JobName> = z.output<JobCatalog[N]['payload']>;
export type JobResultInput<N extends JobName> = z.input<JobCatalog[N]['result']>;
export type JobResult<N extends JobName> = z.output<JobCatalog[N]['result']>;
