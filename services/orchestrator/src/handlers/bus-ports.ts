import { type Bus, enqueueJob, publishEvent } from '@svc/bus';
import { type EnqueueCrtJob, type FinishedRun, runJobId } from '../domain/dispatch';

/** The domain's queue port on the bus: `capability.crt` jobs, one per run (job id `run-<id>`). */
export function crtJobEnqueuer(bus: Bus): EnqueueCrtJob {
  return async (job) => {
    await enqueueJob(bus, 'capability.crt', job, { jobId: runJobId(job.run_id) });
  };
}

/** Announces a final run to whoever waits on it (the gateway's synchronous crt answer). */
export function runFinishedPublisher(bus: Bus): (run: FinishedRun) => Promise<void> {
  return async (run) => {
    await publishEvent(bus, 'run.finished', run);
  };
}
