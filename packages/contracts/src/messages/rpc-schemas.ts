import { z } from 'zod';
import { ProducedArtifact } from '../artifacts';
import { ClientType, DateTime, IdempotencyKey, Sha256Hex, Slug, UsdAmount, Uuid } from '../common';
import { CrtInput } from '../crt';
import { PriceDetail } from '../pricing';
import { CapabilityInputObject, Quote } from '../quote';
import { RunRecord } from '../run';
import { ResolvedFile, UploadId, UploadRecord, UploadSessionInput } from '../uploads';

/**
 * Request and response schemas of the RPC methods that are not REST schemas of their own (the
 * catalog itself is rpc.ts). Wire contract between services of possibly different versions:
 * evolve additively (new fields optional), never rename.
 */

/**
 * `orchestrator.startCrtRun`: records a crt run (or finds the one an Idempotency-Key already names)
 * and queues it; answers as soon as the run is durable and queued, not when it finishes (the
 * gateway waits for `run.finished`). `input` is the parsed CrtInput (apex lowercased, defaults set).
 */
export const StartCrtRunRequest = z.object({
  client_id: Uuid,
  input: CrtInput,
  quote_id: Uuid.optional(),
  client_type: ClientType,
  idempotency_key: IdempotencyKey.optional(),
});
export const StartRunResponse = z.object({
  /** True when the Idempotency-Key named an existing run with the same request: nothing new was done. */
  replay: z.boolean(),
  run: RunRecord,
  quote: Quote.nullable(),
});
export type StartRunResponse = z.infer<typeof StartRunResponse>;

/** SHA-256 (hex) of a capability's canonical input: what a quote prices and a hold checks. */
const InputHash = Sha256Hex;

/**
 * `wallet.issueQuote`: stores a quote with the price the caller computed (crt: zero, spec §1.7) and
 * the wallet's clearance. Idempotent on `quote_id` for the same client; a quote_id held by another
 * client is 409.
 */
export const IssueQuoteRequest = z.object({
  quote_id: Uuid,
  client_id: Uuid,
  slug: Slug,
  price_usd: UsdAmount,
  /** SHA-256 (hex) of the canonical input the quote prices (spec §4 rule 1: run sends the same input). */
  input_hash: InputHash,
  /** How the price was reached; stored with the quote and shown with it. */
  price_detail: PriceDetail.optional(),
  /**
   * True when the quote is issued for a run being recorded (a free run without a quote_id: its id is
   * the run id). Such a quote is kept with its run; an unused one is deleted some time after it
   * expires (wallet quote-cleanup.ts, issue 13). Optional: requests queued before it still parse.
   */
  for_run: z.boolean().optional(),
});

/**
 * `orchestrator.quote` (spec §4.3): the orchestrator describes the capability (registry), refuses a
 * blocked execution mode (409), validates `input` against the capability's schema (422), prices it
 * and has the wallet issue the quote with its clearance. `input` is the raw client object.
 */
export const QuoteCapabilityRequest = z.object({
  client_id: Uuid,
  slug: Slug,
  input: CapabilityInputObject,
  client_type: ClientType,
});

/**
 * `orchestrator.startRun` (spec §4.4): any capability but crt's own endpoint. Idempotency as for crt
 * (docs/decisions.md C3); for a paid capability `idempotency_key` and `quote_id` are required and the
 * wallet holds the price before the run is queued.
 */
export const StartRunRequest = z.object({
  client_id: Uuid,
  slug: Slug,
  input: CapabilityInputObject,
  quote_id: Uuid.optional(),
  client_type: ClientType,
  idempotency_key: IdempotencyKey.optional(),
});

/** `orchestrator.cancelRun` (spec §4.10): what happened and the run after it. */
export const CancelRunResult = z.object({
  /** `cancelled`: the run was queued/retrying and is now cancelled; `cancel_requested`: it is running. */
  outcome: z.enum(['cancelled', 'cancel_requested']),
  run: RunRecord,
});
export type CancelRunResult = z.infer<typeof CancelRunResult>;

/**
 * `wallet.holdForRun`: checks that `quote_id` is this client's quote for this slug and input, not
 * expired and cleared, then holds its price against the balance and the spend cap under a per-client
 * lock (402 when it no longer fits). Idempotent per run: a second call returns the same hold.
 * Errors: 404 unknown quote (or another client's), 422 other slug/input, 409 expired, 402 funds.
 */
export const HoldForRunRequest = z.object({
  client_id: Uuid,
  run_id: Uuid,
  quote_id: Uuid,
  slug: Slug,
  input_hash: InputHash,
});
export const HoldForRunResponse = z.object({
  quote: Quote,
  /** The amount held (the quote's price; 0 for a free quote, which writes no ledger line). */
  held_usd: UsdAmount,
});

/** `wallet.openHolds`: holds without capture or release older than `older_than` (orchestrator reconciler). */
export const OpenHoldsRequest = z.object({
  older_than: DateTime,
  /**
   * Keyset cursor: only holds after this (created_at, run_id) in that order, so a sweeper walks all
   * open holds a page per pass instead of re-reading the oldest ones (optional: older callers).
   */
  after: z.object({ created_at: DateTime, run_id: Uuid }).optional(),
  limit: z.number().int().min(1).max(1000),
});
export const OpenHoldsResponse = z.object({
  holds: z.array(z.object({ run_id: Uuid, client_id: Uuid, created_at: DateTime })),
});

/**
 * `uploads.createSession` (spec §4.6): checks the file against the capability's file requirements
 * (describe) and the platform ceiling, and stores the session with the token's hash. The gateway
 * makes the token and sends only its SHA-256: the token itself never crosses the bus, so it is not
 * kept in Redis with the RPC job either (decisions U4). The gateway builds `upload_url`.
 */
export const CreateUploadSessionRequest = z.object({
  client_id: Uuid,
  slug: Slug,
  input: UploadSessionInput,
  client_type: ClientType,
  /** SHA-256 (hex) of the whole upload token (`upl_…`), as `uploadTokenHash` of @svc/auth computes it. */
  token_sha256: Sha256Hex,
});
export const CreateUploadSessionResponse = z.object({ upload: UploadRecord });

/**
 * `uploads.resolveFiles`: the uploads a quote or run input names, checked (404 unknown or another
 * client's, 409 not complete or expired, 422 made for another capability). With `run_id` they are
 * marked used by that run (kept while the run is). Answers in the order asked.
 */
export const ResolveFilesRequest = z.object({
  client_id: Uuid,
  slug: Slug,
  upload_ids: z.array(UploadId).max(100),
  run_id: Uuid.optional(),
});
export const ResolveFilesResponse = z.object({ files: z.array(ResolvedFile) });

/** `uploads.registerArtifacts`: a completed run's artifacts (idempotent: unique run and name). */
export const RegisterArtifactsRequest = z.object({
  client_id: Uuid,
  run_id: Uuid,
  artifacts: z.array(ProducedArtifact).max(100),
  /** Deleted then by the uploads cleanup (vault documents); absent: ARTIFACT_RETENTION_DAYS applies. */
  expires_at: DateTime.optional(),
});

/**
 * `uploads.listArtifacts`: the run's artifacts with download links signed for `client_id`
 * (`base_url` is the gateway's public base; the caller checked that the client owns the run).
 */
export const ListArtifactsRequest = z.object({
  client_id: Uuid,
  run_id: Uuid,
  base_url: z.url(),
});

/** Longest series `wallet.dailySpend` answers (the dashboard's chart: 30 by default). */
export const DAILY_SPEND_MAX_DAYS = 90;

/**
 * `wallet.dailySpend`: the client's charged runs (capture lines, as the usage statement counts them)
 * per UTC calendar day over the last `days` days, today (UTC) included as the last day.
 */
export const DailySpendRequest = z.object({
  client_id: Uuid,
  days: z.number().int().min(1).max(DAILY_SPEND_MAX_DAYS).default(30),
});
export const DailySpendDay = z.object({
  /** UTC calendar day, YYYY-MM-DD. */
  date: z.iso.date(),
  spent_usd: UsdAmount,
  runs: z.number().int().min(0),
});
export type DailySpendDay = z.infer<typeof DailySpendDay>;
export const DailySpendResponse = z.object({
  client_id: Uuid,
  currency: z.literal('USD'),
  /** Every day of the series, oldest first, 0 where nothing was charged. */
  days: z.array(DailySpendDay),
  total_usd: UsdAmount,
  runs: z.number().int().min(0),
});
export type DailySpendResponse = z.infer<typeof DailySpendResponse>;
