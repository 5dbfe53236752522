import type { JobHandler } from '@svc/bus';
import { redactPii } from '../domain/pii/redact-pii';
import { type CapabilityJobDeps, capabilityJobHandler } from './capability-job';

/**
 * `capability.pii-redact` (runtime node): the generic capability job around `redactPii`, which is
 * pure and synchronous (at most 200,000 characters: milliseconds, well inside the job lock), so it
 * always completes; only a bug throws (retried, then `internal`).
 */
export function piiRedactJobHandler(deps: CapabilityJobDeps): JobHandler<'capability.pii-redact'> {
  return capabilityJobHandler('capability.pii-redact', deps, async ({ input }) => ({
    kind: 'completed',
    result: redactPii(input),
  }));
}
