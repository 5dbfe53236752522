import type { JobHandler } from '@svc/bus';
import type { CrtRunner } from '../domain/crt/crt-runner';
import { type CapabilityJobDeps, capabilityJobHandler } from './capability-job';

/**
 * `capability.crt` (design "Worker"): the generic capability job (capability-job.ts) around the crt
 * runner (cache, providers, result). Every provider failing is a `failed` result
 * (provider_unavailable), not a job failure; an unexpected error is retried by BullMQ.
 */
export function crtJobHandler(deps: CapabilityJobDeps & { runCrt: CrtRunner }): JobHandler<'capability.crt'> {
  const { runCrt, ...jobDeps } = deps;
  return capabilityJobHandler('capability.crt', jobDeps, ({ apex, include_first_seen, limit }, signal) =>
    runCrt({ apex, include_first_seen, limit }, signal),
  );
}
