import { CrtBatchPlanInput } from '@svc/contracts';
import { buildCrtBatchPlan } from './plans/crt-batch-plan';

/**
 * Builds the result of a plan_only run (spec §2.1: "the result is a client plan, no server
 * processing"). Takes the run id (plans name their follow-up requests after it) and the parsed
 * input; parses the input again itself, so callers need no cast. Pure: no I/O.
 */
export type PlanBuilder = (runId: string, input: unknown) => Record<string, unknown>;

const PLAN_BUILDERS: Readonly<Record<string, PlanBuilder>> = {
  'crt-batch-plan': (runId, input) => buildCrtBatchPlan(runId, CrtBatchPlanInput.parse(input)),
};

/** The plan builder of a plan_only capability, or undefined when this deployment has none. */
export function planBuilderOf(slug: string): PlanBuilder | undefined {
  return Object.hasOwn(PLAN_BUILDERS, slug) ? PLAN_BUILDERS[slug] : undefined;
}

export function hasPlanBuilder(slug: string): boolean {
  return planBuilderOf(slug) !== undefined;
}
