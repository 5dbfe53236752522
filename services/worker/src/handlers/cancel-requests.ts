import { type Subscription, subscribeEvents } from '@svc/bus';
import type { Logger } from '@svc/log';
import type { ActiveRuns } from '../domain/capability/active-runs';
import type { WorkerBus } from '../worker-bus';

/**
 * Routes `run.cancel-requested` (published by the orchestrator to every worker) to the run's
 * controller in this process, if it runs here: the handler's signal aborts and it stops
 * cooperatively (spec §4.10). Every other worker ignores the event. Pub/sub is lossy: a job not yet
 * started is covered by its claim, which the orchestrator refuses for a run whose cancel was requested.
 */
export function subscribeCancelRequests(
  bus: WorkerBus,
  activeRuns: ActiveRuns,
  logger: Logger,
): Subscription {
  return subscribeEvents(bus, {
    'run.cancel-requested': ({ run_id }) => {
      const aborted = activeRuns.cancel(run_id);
      if (aborted > 0) logger.info({ run_id }, 'cancellation requested: aborting the run');
    },
  });
}
