import { defineCapability } from '../define';
import { buildCrtBatchPlan } from './plan';
import { CRT_BATCH_MAX_ENTRIES, CrtBatchPlanInput, CrtBatchPlanResult } from './schema';

/**
 * `crt-batch-plan` (plan_only, spec §2.1: "the result is a client plan, no server processing"):
 * the orchestrator builds the plan with `plan` (./plan.ts) when the run is created, so it has no
 * handler and no job.
 *
 * Words for the full-text index: "batch", "bulk", "plan", "many", "list". It deliberately says
 * "crt", "certificate", "domain" and "subdomains" only a little, and never in the name (weight A):
 * someone asking for "certificates for my domain" or plain "crt" wants crt itself, which must rank
 * first; "plan crt runs for many domains" or "bulk certificate transparency" finds this one.
 * The description says plainly that the server runs nothing, so nobody expects observations.
 */
export const crtBatchPlan = defineCapability({
  slug: 'crt-batch-plan',
  name: 'Batch plan for bulk apex lookups, many at once',
  description:
    `Plan certificate transparency lookups for a list of up to ${CRT_BATCH_MAX_ENTRIES} apex domains in one call. ` +
    'Each entry is trimmed, lowercased and checked with the same rules as a single run (a registrable domain under ' +
    'the Public Suffix List): duplicates, subdomains, public suffixes and malformed names come back as rejected ' +
    'entries, each with its reason. For every valid entry the plan gives the exact request to send ' +
    '(POST /api/capabilities/crt/run with its body) and its own Idempotency-Key, stable for this plan, so a retried ' +
    'request never starts a second run. Plan only: the server runs nothing and returns no certificates or ' +
    'hostnames; you make the runs yourself. Free.',
  category: 'security',
  tags: ['batch', 'bulk', 'plan', 'planner', 'list', 'apexes', 'many', 'idempotency'],
  version: '1.0.0',
  pricing: { model: 'free', currency: 'USD', description: 'Free.' },
  execution: { machine_run_status: 'plan_only', runtime: 'node', mode: 'sync' },
  input: CrtBatchPlanInput,
  result: CrtBatchPlanResult,
  plan: buildCrtBatchPlan,
});
