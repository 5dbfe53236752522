import { type Bus, type JobProcessor, processJobs } from '@svc/bus';
import { echo } from '../domain/echo';

export interface JobConsumerOptions {
  /** Jobs run at once by this process, per queue (WORKER_CONCURRENCY). */
  concurrency: number;
  /** ms: how long closing waits for running jobs before dropping them (they are redelivered). */
  drainTimeoutMs: number;
}

/** Starts a consumer for every job queue this worker handles (from issue 3 on: `jobs.<capability>`). */
export function startJobConsumers(bus: Bus, options: JobConsumerOptions): JobProcessor[] {
  const queueOptions = { concurrency: options.concurrency, closeTimeoutMs: options.drainTimeoutMs };
  return [processJobs(bus, 'system.echo', (payload) => echo(payload), queueOptions)];
}
