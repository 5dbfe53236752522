import { z } from 'zod';
import { CapabilitySlugParams } from '../capability-api';
import { IdempotencyKey } from '../common';
import { QuoteRequest, QuoteResponse } from '../quote';
import { RunRequest, RunStartResponse } from '../run';
import { defineOperation } from './operation-types';
import { PreferenceAppliedHeader, PreferWaitHeader } from './prefer-wait';
import { RunLocationHeader } from './run-operations';

/**
 * `Idempotency-Key` of POST /api/capabilities/{slug}/run (spec §4 rule 2; lowercase: HTTP header
 * names). Optional in shape; the orchestrator requires it for paid capabilities (422 naming the price).
 */
export const RunHeaders = z.object({
  'idempotency-key': IdempotencyKey.optional().describe(
    'Unique per logical quote/run attempt (8-190 characters of A-Z a-z 0-9 . _ : -); required for paid ' +
      'capabilities. The same key with the same request replays the original run; with a different ' +
      'request it is rejected with 422.',
  ),
});

/** Spec §4.3 and §4.4: quote a capability, then run it with the quote. */
export const quoteRunOperations = [
  defineOperation({
    method: 'post',
    path: '/api/capabilities/{slug}/quote',
    operationId: 'quoteCapability',
    rateLimit: 'quotes',
    summary: 'Quote a capability input: price and wallet clearance',
    description:
      "Validates `input` against the capability's `input_schema`, prices it (see `price_detail`) and checks " +
      'the price against the balance and the monthly spend cap (`wallet_clearance`, with the figures it used). ' +
      'A quote that is not cleared is still answered 200: the run with it is refused with 402. `execution` ' +
      "says whether a worker of the capability's runtime is up. The quote is valid for 15 minutes and can " +
      'start one run. Capabilities whose `machine_run_status` is `describe_only`, missing or unknown cannot ' +
      'be quoted (409, spec §2.1).',
    tags: ['runs'],
    auth: { kind: 'key', scopes: ['capabilities:quote'] },
    params: { path: CapabilitySlugParams },
    body: { schema: QuoteRequest },
    success: { status: 200, description: 'The quote.', schema: QuoteResponse },
    errors: [400, 401, 403, 404, 409, 413, 415, 422, 500, 503],
    errorNotes: {
      404: 'Unknown capability.',
      409: 'The capability cannot be quoted: its execution mode is describe_only (or missing/unknown), or this deployment has no handler for it.',
      422: 'Invalid slug, body or input; `error` names the field (e.g. `input.text: …`).',
    },
  }),
  defineOperation({
    method: 'post',
    path: '/api/capabilities/{slug}/run',
    operationId: 'runCapability',
    rateLimit: 'runs',
    summary: 'Run a capability with its quote',
    description:
      'Starts a run of any capability except `crt`, which has its own endpoint. Send exactly the quoted ' +
      '`input` and its `quote_id` (it becomes the run ID); paid capabilities require both `quote_id` and ' +
      '`Idempotency-Key`. The price is held against the wallet before the run is queued, captured when it ' +
      'completes and released otherwise. Answers as soon as the run is recorded: 202 with `Location` while ' +
      'it is queued or running, 200 when it is already finished (`plan_only`: the plan is the result) and on ' +
      'a replay of the same key and request (`Idempotent-Replayed: true`). With `Prefer: wait=N` it first ' +
      'waits up to N seconds for the run to end: 200 with the finished run, else 202 as without it.',
    tags: ['runs'],
    auth: { kind: 'key', scopes: ['capabilities:run'] },
    params: { path: CapabilitySlugParams, header: RunHeaders.extend(PreferWaitHeader.shape) },
    body: { schema: RunRequest },
    success: {
      status: 202,
      description: 'The run is recorded and queued; poll the `Location` (GET /api/capability-runs/{run_id}).',
      schema: RunStartResponse,
      headers: RunLocationHeader.extend(PreferenceAppliedHeader.shape),
    },
    otherResponses: {
      200: {
        description:
          'The run is already finished (plan_only), or this is a replay of the original run (`idempotent_replay: true`).',
        schema: RunStartResponse,
        headers: z
          .object({
            'Idempotent-Replayed': z
              .literal('true')
              .optional()
              .describe('Present on a replay: no new work was done.'),
          })
          .extend(PreferenceAppliedHeader.shape),
      },
    },
    errors: [400, 401, 402, 403, 404, 409, 413, 415, 422, 500, 503],
    errorNotes: {
      402: 'The wallet stopped the run: insufficient balance or the monthly spend cap; the message names the price, the limit and the figures. No run is recorded.',
      404: "Unknown capability, or unknown quote_id (another client's quote reads the same).",
      409: 'The capability cannot be run (describe_only, missing or unknown mode, no handler), the quote expired, or the quote was already used for a run.',
      422: 'Invalid slug, header, body or input; a paid run without Idempotency-Key or quote_id; a quote for another capability or input; an Idempotency-Key reused with a different request.',
    },
  }),
] as const;
