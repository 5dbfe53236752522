import { type Bus, type JobProcessor, processJobs } from '@svc/bus';
import type { Logger } from '@svc/log';
import type { CrtRunner } from '../domain/crt/crt-runner';
import { echo } from '../domain/echo';
import { crtJobHandler } from './crt-job';

/** The runtime the crt capability runs on (its manifest's `runtime`). */
const CRT_RUNTIME = 'node';

export interface JobConsumerOptions {
  /** Jobs run at once by this process, per queue (WORKER_CONCURRENCY). */
  concurrency: number;
  /** ms: how long closing waits for running jobs before dropping them (they are redelivered). */
  drainTimeoutMs: number;
  /** WORKER_RUNTIMES: capability queues are consumed only for runtimes this worker serves. */
  runtimes: readonly string[];
  /** The crt capability (consumed when `node` is among the runtimes). */
  runCrt: CrtRunner;
  logger: Logger;
}

/** Starts a consumer for every job queue this worker handles: `system.echo`, and `capability.crt` on node. */
export function startJobConsumers(bus: Bus, options: JobConsumerOptions): JobProcessor[] {
  const queueOptions = { concurrency: options.concurrency, closeTimeoutMs: options.drainTimeoutMs };
  const consumers = [processJobs(bus, 'system.echo', (payload) => echo(payload), queueOptions)];
  if (options.runtimes.includes(CRT_RUNTIME)) {
    const handler = crtJobHandler({ bus, runCrt: options.runCrt, logger: options.logger });
    consumers.push(processJobs(bus, 'capability.crt', handler, queueOptions));
  }
  return consumers;
}
