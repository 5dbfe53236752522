import type { Bus, JobHandler } from '@svc/bus';
import type { Logger } from '@svc/log';
import { ActiveRuns } from '../domain/capability/active-runs';
import type { CrtRunner } from '../domain/crt/crt-runner';
import { capabilityJobHandler } from './capability-job';

export interface CrtJobDeps {
  bus: Bus;
  runCrt: CrtRunner;
  logger: Logger;
  /** The process's active runs (cancellation); default: a set of its own, which no cancel reaches. */
  activeRuns?: ActiveRuns;
  /** Clock for report times (tests); default Date.now. */
  now?: () => number;
}

/**
 * `capability.crt` (design "Worker"): the generic capability job (capability-job.ts) around the crt
 * runner (cache, providers, result). Every provider failing is a `failed` result
 * (provider_unavailable), not a job failure; an unexpected error is retried by BullMQ.
 */
export function crtJobHandler(deps: CrtJobDeps): JobHandler<'capability.crt'> {
  const activeRuns = deps.activeRuns ?? new ActiveRuns();
  return capabilityJobHandler(
    'capability.crt',
    { bus: deps.bus, logger: deps.logger, activeRuns, now: deps.now },
    ({ apex, include_first_seen, limit }, signal) => deps.runCrt({ apex, include_first_seen, limit }, signal),
  );
}
