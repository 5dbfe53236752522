import { z } from 'zod';
import { ClientType, DateTime, Hostname, Uuid } from './common';

/** Spec §2.6 / §8: bounds shared by CrtInput.limit, CrtResult.limit and CrtResult.count. */
export const CRT_MAX_LIMIT = 1000;
export const CRT_DEFAULT_LIMIT = 100;

/**
 * Spec §2.6 CrtInput (no additional properties, `apex` required). Only the RFC 1123 shape of `apex`
 * is checked here; the registrable-domain rule (eTLD+1 under the public-suffix list, ICANN and
 * PRIVATE sections) is a refinement added where tldts is available, e.g.
 * `CrtInput.extend({ apex: Hostname.refine(isRegistrableDomain, 'must be a registrable domain') })`.
 */
export const CrtInput = z
  .object({
    apex: Hostname.describe('Registrable domain (eTLD+1); public suffixes and subdomains are rejected.'),
    include_first_seen: z.boolean().default(false).describe('Adds first_seen to each observation when true.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(CRT_MAX_LIMIT)
      .default(CRT_DEFAULT_LIMIT)
      .describe('Maximum number of observations returned (1 to 1000).'),
  })
  .strict();
export type CrtInput = z.infer<typeof CrtInput>;

/** Spec §2.6 CrtRunRequest (no additional properties, `input` required). */
export const CrtRunRequest = z
  .object({
    input: CrtInput,
    quote_id: Uuid.optional().describe(
      'Optional for this free capability; a supplied UUID becomes the run ID.',
    ),
    client_type: ClientType.default('api'),
  })
  .strict();
export type CrtRunRequest = z.infer<typeof CrtRunRequest>;

/** Spec §2.6 CrtObservation (no additional properties). */
export const CrtObservation = z
  .object({
    hostname: Hostname,
    first_seen: DateTime.optional(),
  })
  .strict();
export type CrtObservation = z.infer<typeof CrtObservation>;

/** Spec §2.6 CrtResult (no additional properties, all required). */
export const CrtResult = z
  .object({
    status: z.literal('completed'),
    summary: z.string(),
    apex: Hostname,
    count: z.number().int().min(0).max(CRT_MAX_LIMIT),
    limit: z.number().int().min(1).max(CRT_MAX_LIMIT),
    include_first_seen: z.boolean(),
    observations: z.array(CrtObservation).max(CRT_MAX_LIMIT),
    provider: z.string(),
    // Spec §1.7: observations do not prove that hosts are live.
    live_hosts_verified: z.literal(false),
    disclosure: z.string(),
  })
  .strict();
export type CrtResult = z.infer<typeof CrtResult>;

/** Quote object inside crt run responses: spec §2.2 shows only `quote_id`, the rest is open. */
const QuoteObject = z.record(z.string(), z.unknown());

/** Spec §2.6 CrtCompletedRunResponse (no additional properties, all required). */
export const CrtCompletedRunResponse = z
  .object({
    ok: z.literal(true),
    run_id: Uuid,
    status: z.literal('completed'),
    quote: QuoteObject,
    result: CrtResult,
  })
  .strict();
export type CrtCompletedRunResponse = z.infer<typeof CrtCompletedRunResponse>;

/**
 * Spec §2.6 CrtReplayRunResponse: required ok, run_id, status, idempotent_replay; the spec does
 * not forbid additional properties, so unknown keys are kept (loose object).
 */
export const CrtReplayRunResponse = z.looseObject({
  ok: z.literal(true),
  run_id: Uuid,
  status: z.string(),
  idempotent_replay: z.literal(true),
  quote: QuoteObject.nullable().optional(),
  run: z.record(z.string(), z.unknown()).nullable().optional(),
  message: z.string().optional(),
});
export type CrtReplayRunResponse = z.infer<typeof CrtReplayRunResponse>;

/** Spec §4.5: the crt run answers either shape. */
export const CrtRunResponse = z.union([CrtCompletedRunResponse, CrtReplayRunResponse]);
export type CrtRunResponse = z.infer<typeof CrtRunResponse>;
