import { z } from 'zod';
import { ClientType, DateTime, Slug, UsdAmount, Uuid } from './common';
import { RunState } from './execution';
import { CapabilityInputObject, Quote } from './quote';

/** Spec §3: states a run never leaves. */
export const TERMINAL_RUN_STATES = [
  'completed',
  'failed',
  'cancelled',
] as const satisfies readonly RunState[];

export function isTerminalRunState(state: RunState): boolean {
  return (TERMINAL_RUN_STATES as readonly RunState[]).includes(state);
}

/**
 * Why a run failed. `code` is a stable token clients may branch on: `provider_unavailable` (every
 * outside provider failed; the HTTP answer was 502), `internal` (our fault; details are in our logs
 * under the run id). Later capabilities add codes; clients treat unknown codes like `internal`.
 */
export const RunError = z
  .object({
    code: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
    message: z.string(),
  })
  .strict();
export type RunError = z.infer<typeof RunError>;

/** The RunError codes in use (above); one definition for the workers that set them and the gateway that maps them. */
export const RUN_ERROR_CODES = {
  providerUnavailable: 'provider_unavailable',
  internal: 'internal',
  /** The result would exceed what a run may return (e.g. a rendered document over its cap). */
  outputTooLarge: 'output_too_large',
  /** The capability ran and could not produce a result from this input (e.g. a page that did not render). */
  renderFailed: 'render_failed',
  /** The attempt ran out of its time budget on every try. */
  timeout: 'timeout',
  /**
   * The input's files cannot be processed as what they claim to be (an unreadable, encrypted or
   * too long PDF, a malformed CSV, an undecodable image): final, a retry would fail the same way.
   */
  invalidInput: 'invalid_input',
} as const;

/**
 * One run as clients see it (spec §2.3: `run_id` and `status` shown, the rest is ours,
 * docs/decisions.md C6). `result` is present once the run is completed (for crt: a CrtResult),
 * `error` once it failed. Timestamps are RFC 3339 UTC; `started_at`/`finished_at` are null until
 * the run starts/ends.
 */
export const RunRecord = z
  .object({
    run_id: Uuid,
    status: RunState,
    slug: Slug,
    client_type: ClientType,
    quote_id: Uuid.nullable(),
    created_at: DateTime,
    updated_at: DateTime,
    started_at: DateTime.nullable(),
    finished_at: DateTime.nullable(),
    attempts: z
      .number()
      .int()
      .min(0)
      .describe('Attempts started so far (a retry or a recovery after a worker died counts one more).'),
    price_usd: UsdAmount.describe('The quoted price; captured when the run completes, released otherwise.'),
    runtime: z.string().describe('Worker runtime that executes the capability (e.g. node, browser).'),
    waiting_for_runtime: z
      .string()
      .nullable()
      .describe('While queued: the runtime no worker of which is up yet (requires_worker), else null.'),
    cancel_requested_at: DateTime.nullable().describe(
      'When a cancellation was requested (running runs stop cooperatively).',
    ),
    status_message: z.string().describe('The current state in words, e.g. why the run waits or is retried.'),
    result: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('The capability result; present when completed.'),
    error: RunError.optional().describe('Why the run failed; present when failed.'),
  })
  .strict();
export type RunRecord = z.infer<typeof RunRecord>;

/** 200 body of GET /api/capability-runs/{run_id} (spec §4.8: "run status"). */
export const RunStatusResponse = z
  .object({ ok: z.literal(true), ...RunRecord.shape })
  .strict()
  .describe('The run status record (spec §4.8).');
export type RunStatusResponse = z.infer<typeof RunStatusResponse>;

/** Path parameters of /api/capability-runs/{run_id}… (a malformed id is 422, docs/decisions.md C7). */
export const RunIdParams = z.object({ run_id: Uuid.describe('Run ID (UUID).') }).strict();
export type RunIdParams = z.infer<typeof RunIdParams>;

/** Body of POST /api/capabilities/{slug}/run (spec §4.4): the quoted input, the quote and who asks. */
export const RunRequest = z
  .object({
    input: CapabilityInputObject.default({}).describe('Exactly the input that was quoted (spec §4 rule 1).'),
    quote_id: Uuid.optional().describe(
      'The quote to run (required for paid capabilities); it becomes the run ID and is used once.',
    ),
    client_type: ClientType.default('api'),
  })
  .strict();
export type RunRequest = z.infer<typeof RunRequest>;

/**
 * Answer of POST /api/capabilities/{slug}/run (spec §4.4: `ok`, `run_id`, `status`), given as soon
 * as the run is recorded: 202 while it is not finished (with `Location`), 200 when it already is
 * (plan_only) and on every replay (`idempotent_replay: true`, header `Idempotent-Replayed`).
 */
export const RunStartResponse = z
  .object({
    ok: z.literal(true),
    run_id: Uuid,
    status: RunState,
    idempotent_replay: z.boolean(),
    quote: Quote.nullable(),
    run: RunRecord,
  })
  .strict()
  .describe('The recorded run (spec §4.4).');
export type RunStartResponse = z.infer<typeof RunStartResponse>;

/**
 * Answer of POST /api/capability-runs/{run_id}/cancel (spec §4.10): the run's canonical status. 200
 * when the run is now `cancelled` (it was queued or retrying); 202 when it is running and a
 * cooperative cancellation was requested (`cancel_requested_at` set; it ends `cancelled`, or
 * `completed` if the handler finished first). A finished run answers 409.
 */
export const CancelRunResponse = RunStatusResponse;
export type CancelRunResponse = RunStatusResponse;
