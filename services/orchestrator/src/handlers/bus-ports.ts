import { type Bus, enqueueJob, publishEvent } from '@svc/bus';
import { type EnqueueCrtJob, runJobId } from '../domain/dispatch';
import type { RunFinishedEvent } from '../domain/run-finished';

/** The domain's queue port on the bus: `capability.crt` jobs, one per run (job id `run-<id>`). */
export function crtJobEnqueuer(bus: Bus): EnqueueCrtJob {
  return async (job) => {
    await enqueueJob(bus, 'capability.crt', job, { jobId: runJobId(job.run_id) });
  };
}

/**
 * Announces a final run to whoever waits on it (the gateway's synchronous crt answer). Reports pass
 * the whole event (owner and record, runFinishedEvent); the dispatcher's sweeps only id and state.
 */
export function runFinishedPublisher(bus: Bus): (event: RunFinishedEvent) => Promise<void> {
  return async (event) => {
    await publishEvent(bus, 'run.finished', event);
  };
}
