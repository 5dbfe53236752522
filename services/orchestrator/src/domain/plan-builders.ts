import { capabilityDefinition } from '@svc/capabilities';

/**
 * Builds the result of a plan_only run (spec §2.1: "the result is a client plan, no server
 * processing"). Takes the run id (plans name their follow-up requests after it) and the parsed
 * input; parses the input again itself, so callers need no cast. Pure: no I/O.
 */
export type PlanBuilder = (runId: string, input: unknown) => Record<string, unknown>;

/**
 * The plan builder of a plan_only capability (its declaration's `plan`, @svc/capabilities), or
 * undefined when this deployment has none.
 */
export function planBuilderOf(slug: string): PlanBuilder | undefined {
  const capability = capabilityDefinition(slug);
  return capability === undefined || capability.runnable ? undefined : capability.plan;
}

export function hasPlanBuilder(slug: string): boolean {
  return planBuilderOf(slug) !== undefined;
}
