import { eventCatalog, type JobDefinition, platformJobs, rpcCatalog } from '@svc/contracts';
import type { z } from 'zod';
import type { Capability, RunnableCapability } from './capability-types';
import { CAPABILITIES } from './catalog';

/** The capabilities of `Cs` that a worker runs (they have a job and a handler). */
type RunnableOf<Cs extends readonly Capability[]> = Extract<Cs[number], { readonly runnable: true }>;

/** Job name of a capability: queue `jobs.capability.<slug>`. */
export type JobNameOf<Slug extends string> = `capability.${Slug}`;

/** The job catalog entries of `Cs`: `capability.<slug>` → its job, for every runnable capability. */
export type CapabilityJobs<Cs extends readonly Capability[]> = {
  [C in RunnableOf<Cs> as JobNameOf<C['slug']>]: C['job'];
};

export function isRunnable(capability: Capability): capability is RunnableCapability {
  return capability.runnable;
}

/** The runnable capabilities of a list, in order. */
export function runnableCapabilities(capabilities: readonly Capability[]): RunnableCapability[] {
  return capabilities.filter(isRunnable);
}

/** The capabilities of this build that a worker runs, in catalog order. */
export const RUNNABLE_CAPABILITIES: readonly RunnableCapability[] = runnableCapabilities(CAPABILITIES);

/** The job catalog entries (`capability.<slug>`) derived from a list of declarations. */
export function capabilityJobs<const Cs extends readonly Capability[]>(capabilities: Cs): CapabilityJobs<Cs> {
  const entries = runnableCapabilities(capabilities).map((c): [string, JobDefinition] => [
    `capability.${c.slug}`,
    c.job,
  ]);
  return Object.fromEntries(entries) as CapabilityJobs<Cs>;
}

/** Every background job type, by name (queue `jobs.<name>`): the platform's and the capabilities'. */
export const jobCatalog = { ...platformJobs, ...capabilityJobs(CAPABILITIES) } satisfies Record<
  string,
  JobDefinition
>;

export type JobCatalog = typeof jobCatalog;
export type JobName = keyof JobCatalog;
export type JobPayloadInput<N extends JobName> = z.input<JobCatalog[N]['payload']>;
export type JobPayload<N extends JobName> = z.output<JobCatalog[N]['payload']>;
export type JobResultInput<N extends JobName> = z.input<JobCatalog[N]['result']>;
export type JobResult<N extends JobName> = z.output<JobCatalog[N]['result']>;

/** Slugs of the capabilities a worker runs. */
export type RunnableSlug = RunnableOf<typeof CAPABILITIES>['slug'];
/** Capability job names: one queue per capability that runs on a worker. */
export type CapabilityJobName = JobNameOf<RunnableSlug>;

/** slug → job name, for every capability a worker runs. */
export const CAPABILITY_JOBS: Readonly<Record<RunnableSlug, CapabilityJobName>> = Object.fromEntries(
  RUNNABLE_CAPABILITIES.map((c) => [c.slug, `capability.${c.slug}`]),
) as Record<RunnableSlug, CapabilityJobName>;

/** The job of a capability slug, or undefined when no worker runs it (plan_only, describe_only, unknown). */
export function capabilityJobName(slug: string): CapabilityJobName | undefined {
  const jobs: Readonly<Record<string, CapabilityJobName>> = CAPABILITY_JOBS;
  return Object.hasOwn(jobs, slug) ? jobs[slug] : undefined;
}

/** The whole message catalog every service hands its bus (`createBus({ catalog: messageCatalog })`). */
export const messageCatalog = { rpc: rpcCatalog, jobs: jobCatalog, events: eventCatalog } as const;
export type MessageCatalog = typeof messageCatalog;
