import { z } from 'zod';
import { Apex } from './apex';
import { ClientType, DateTime, Hostname, Uuid } from './common';
import { Quote } from './quote';
import { RunRecord } from './run';

/** Spec §2.6 / §8: bounds shared by CrtInput.limit, CrtResult.limit and CrtResult.count. */
export const CRT_MAX_LIMIT = 1000;
export const CRT_DEFAULT_LIMIT = 100;

/**
 * Spec §2.6 CrtInput (no additional properties, `apex` required). `apex` is lowercased and must be
 * its own registrable domain under the Public Suffix List (apex.ts).
 */
export const CrtInput = z
  .object({
    apex: Apex.describe('Registrable domain (eTLD+1); public suffixes and subdomains are rejected.'),
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
      'Optional for this free capability. A valid UUID becomes the run ID (run IDs are yours alone: ' +
        "another client's use of the same UUID is never seen). A quote_id of yours from " +
        'POST /api/capabilities/crt/quote must be for this input and not expired; a UUID you already ' +
        'named a run with answers 409.',
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

/** Spec §2.6 CrtCompletedRunResponse (no additional properties, all required). */
export const CrtCompletedRunResponse = z
  .object({
    ok: z.literal(true),
    run_id: Uuid,
    status: z.literal('completed'),
    quote: Quote,
    result: CrtResult,
  })
  .strict();
export type CrtCompletedRunResponse = z.infer<typeof CrtCompletedRunResponse>;

/**
 * Spec §2.6 CrtReplayRunResponse: required ok, run_id, status, idempotent_replay; `quote`, `run`
 * and `message` optional. We always send all seven: `status` is the original run's current state
 * (a replay that arrives while the first request is still running waits like it did), `run` its
 * status record, `quote` its quote (docs/decisions.md C4).
 */
export const CrtReplayRunResponse = z
  .object({
    ok: z.literal(true),
    run_id: Uuid,
    status: z.string(),
    idempotent_replay: z.literal(true),
    quote: Quote.nullable().optional(),
    run: RunRecord.nullable().optional(),
    message: z.string().optional(),
  })
  .strict();
export type CrtReplayRunResponse = z.infer<typeof CrtReplayRunResponse>;

/** Spec §4.5: the crt run answers either shape. */
export const CrtRunResponse = z.union([CrtCompletedRunResponse, CrtReplayRunResponse]);
export type CrtRunResponse = z.infer<typeof CrtRunResponse>;
