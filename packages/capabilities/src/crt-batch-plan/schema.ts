import { CrtInput, CrtRunRequest } from '@svc/contracts';
import { z } from 'zod';

/** Most apex entries one plan takes. */
export const CRT_BATCH_MAX_ENTRIES = 500;

/**
 * Input of `crt-batch-plan` (plan_only). Entries are free text on purpose: each is checked on its own
 * and a bad one is listed under `rejected` with its reason, instead of failing the whole plan.
 */
export const CrtBatchPlanInput = z
  .object({
    apexes: z
      .array(z.string().max(300))
      .min(1)
      .max(CRT_BATCH_MAX_ENTRIES)
      .describe('Apex domains to plan crt runs for (1 to 500 entries; each is checked separately).'),
    // The crt options themselves (same bounds and defaults as CrtInput), applied to every planned run.
    limit: CrtInput.shape.limit.describe('crt `limit` of every planned run.'),
    include_first_seen: CrtInput.shape.include_first_seen.describe(
      'crt `include_first_seen` of every planned run.',
    ),
  })
  .strict();
export type CrtBatchPlanInput = z.infer<typeof CrtBatchPlanInput>;

/** One crt run the client should make: the exact request, with its own Idempotency-Key. */
export const PlannedCrtRun = z
  .object({
    index: z.number().int().min(0),
    apex: z.string(),
    idempotency_key: z.string(),
    request: z
      .object({
        method: z.literal('POST'),
        path: z.literal('/api/capabilities/crt/run'),
        headers: z.object({ 'Idempotency-Key': z.string() }).strict(),
        body: CrtRunRequest,
      })
      .strict(),
  })
  .strict();
export type PlannedCrtRun = z.infer<typeof PlannedCrtRun>;

export const RejectedPlanEntry = z
  .object({ index: z.number().int().min(0), entry: z.string(), reason: z.string() })
  .strict();
export type RejectedPlanEntry = z.infer<typeof RejectedPlanEntry>;

/** Result of `crt-batch-plan`: a plan for the client; the server ran nothing (spec §2.1 plan_only). */
export const CrtBatchPlanResult = z
  .object({
    summary: z.string(),
    server_processing: z.literal(false),
    planned: z.array(PlannedCrtRun),
    rejected: z.array(RejectedPlanEntry),
    counts: z
      .object({ submitted: z.number().int(), planned: z.number().int(), rejected: z.number().int() })
      .strict(),
  })
  .strict();
export type CrtBatchPlanResult = z.infer<typeof CrtBatchPlanResult>;
