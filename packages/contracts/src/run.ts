import { z } from 'zod';
import { ClientType, DateTime, Slug, Uuid } from './common';
import { RunState } from './execution';

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
