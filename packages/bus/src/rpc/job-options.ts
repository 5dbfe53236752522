import type { JobsOptions } from 'bullmq';

/**
 * Options of every RPC request job.
 * - `attempts: 1`: the caller retries (it knows its own deadline), never the queue.
 * - completed jobs are kept a few seconds, not removed at once: `waitUntilFinished` reads the result
 *   of a job that finished before it subscribed, and breaks with `removeOnComplete: true`
 *   ("Missing key for job … isFinished", NOTES "BullMQ and Redis").
 * - failed jobs (BullMQ-level failures only: domain errors are successful replies) are kept for
 *   inspection, bounded by count and age.
 */
export const RPC_JOB_OPTIONS: JobsOptions = {
  attempts: 1,
  removeOnComplete: { age: 10 /* s */, count: 10_000 },
  removeOnFail: { age: 24 * 3600 /* s */, count: 1_000 },
};
