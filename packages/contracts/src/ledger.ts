import { z } from 'zod';
import { DateTime, Slug, UsdAmount, Uuid } from './common';
import { Quote } from './quote';
import { RunRecord } from './run';

/**
 * A signed USD decimal string: ledger lines move money both ways (docs/decisions.md W3: credits +,
 * holds and captures −). Same digits as UsdAmount, with an optional leading minus.
 */
export const SignedUsdAmount = z
  .string()
  .regex(
    /^-?(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,6})?$/,
    'must be a USD decimal string with at most 6 decimals',
  );
export type SignedUsdAmount = z.infer<typeof SignedUsdAmount>;

export const LEDGER_ENTRY_KINDS = ['credit', 'hold', 'capture', 'release', 'adjustment'] as const;
export const LedgerEntryKind = z.enum(LEDGER_ENTRY_KINDS);
export type LedgerEntryKind = z.infer<typeof LedgerEntryKind>;

/** One line of the append-only ledger as clients see it. */
export const LedgerLine = z
  .object({
    entry_id: Uuid,
    kind: LedgerEntryKind,
    amount_usd: SignedUsdAmount.describe(
      'Signed: holds and captures negative, credits positive; a release repeats the hold it closes, positive.',
    ),
    run_id: Uuid.nullable(),
    slug: Slug.nullable(),
    note: z.string().nullable(),
    created_at: DateTime,
  })
  .strict();
export type LedgerLine = z.infer<typeof LedgerLine>;

/** What the ledger says about one run. */
export const RunLedger = z
  .object({
    lines: z.array(LedgerLine),
    /** Open hold (0 once captured or released). */
    held_usd: UsdAmount,
    /** What the run cost: its capture (0 when released or not settled yet). */
    charged_usd: UsdAmount,
    /** True once the hold was captured or released (or the run was free). */
    settled: z.boolean(),
  })
  .strict();
export type RunLedger = z.infer<typeof RunLedger>;

/** 200 body of GET /api/capability-runs/{run_id}/receipt (spec §4.11: "run and ledger receipt"). */
export const RunReceiptResponse = z
  .object({
    ok: z.literal(true),
    run: RunRecord,
    quote: Quote.nullable(),
    currency: z.literal('USD'),
    ledger: RunLedger,
  })
  .strict()
  .describe('A run with its quote and ledger lines (spec §4.11).');
export type RunReceiptResponse = z.infer<typeof RunReceiptResponse>;

export const USAGE_LINES_DEFAULT = 100;
export const USAGE_LINES_MAX = 1000;
/** ms: the longest period one statement covers (a year and a day). */
export const USAGE_MAX_SPAN_MS = 366 * 24 * 3_600_000;

/**
 * Query of GET /api/account/usage-statement (spec §4.13: parameters are ours, docs/decisions.md W5):
 * `from` (inclusive) and `to` (exclusive) are RFC 3339 instants, default the current UTC calendar
 * month; `slug` narrows to one capability; `limit` caps the lines (totals always cover the period).
 */
export const UsageStatementQuery = z
  .object({
    from: DateTime.optional().describe('Start of the period (inclusive); default: start of this UTC month.'),
    to: DateTime.optional().describe('End of the period (exclusive); default: start of next UTC month.'),
    slug: Slug.optional().describe('Only this capability.'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(USAGE_LINES_MAX)
      .default(USAGE_LINES_DEFAULT)
      .describe('Most recent lines returned (1 to 1000, default 100).'),
  })
  .strict();
export type UsageStatementQuery = z.infer<typeof UsageStatementQuery>;

/** One charged run in a statement. */
export const UsageLine = z
  .object({
    run_id: Uuid,
    slug: Slug,
    amount_usd: UsdAmount,
    captured_at: DateTime,
  })
  .strict();

export const CapabilityUsage = z
  .object({
    slug: Slug,
    runs: z.number().int().min(0),
    spent_usd: UsdAmount,
  })
  .strict();

/** 200 body of GET /api/account/usage-statement (spec §4.13). */
export const UsageStatementResponse = z
  .object({
    ok: z.literal(true),
    client_id: Uuid,
    currency: z.literal('USD'),
    period: z.object({ start: DateTime, end: DateTime }).strict(),
    slug: Slug.nullable(),
    /** Charged runs (captures), newest first, at most `limit`. */
    lines: z.array(UsageLine),
    lines_truncated: z.boolean(),
    /** Per capability over the whole period, largest spend first. */
    by_capability: z.array(CapabilityUsage),
    totals: z.object({ runs: z.number().int().min(0), spent_usd: UsdAmount }).strict(),
  })
  .strict()
  .describe('Charged runs and totals per capability for a period (spec §4.13).');
export type UsageStatementResponse = z.infer<typeof UsageStatementResponse>;

export const BURN_WINDOWS = ['1h', '24h', '7d'] as const;
export const BurnWindow = z.enum(BURN_WINDOWS);
export type BurnWindow = z.infer<typeof BurnWindow>;

/** 200 body of GET /api/account/spend-diagnostics (spec §4.14: "spend forecasting"). */
export const SpendDiagnosticsResponse = z
  .object({
    ok: z.literal(true),
    client_id: Uuid,
    currency: z.literal('USD'),
    as_of: DateTime,
    balance_usd: UsdAmount,
    held_usd: UsdAmount,
    spend_cap_usd: UsdAmount.nullable(),
    spent_this_period_usd: UsdAmount,
    remaining_usd: UsdAmount,
    /** Captures in each trailing window ending at `as_of`. */
    burn_rate: z.array(
      z
        .object({
          window: BurnWindow,
          spent_usd: UsdAmount,
          runs: z.number().int().min(0),
          usd_per_hour: UsdAmount,
        })
        .strict(),
    ),
    /**
     * Straight-line forecast at the rate of `basis_window` (the shortest window with spend among
     * 24h, 7d): when the cap would be reached and the balance emptied. Null when there is no spend
     * to extrapolate, no cap, or the point lies beyond the current period (cap) / a year (balance).
     */
    projection: z
      .object({
        basis_window: BurnWindow.nullable(),
        usd_per_hour: UsdAmount,
        cap_reached_at: DateTime.nullable(),
        balance_empty_at: DateTime.nullable(),
        note: z.string(),
      })
      .strict(),
    /** Largest spenders this period (at most 5). */
    top_capabilities: z.array(CapabilityUsage.extend({ share_pct: z.number().min(0).max(100) }).strict()),
  })
  .strict()
  .describe('Burn rate, projections and top capabilities (spec §4.14).');
export type SpendDiagnosticsResponse = z.infer<typeof SpendDiagnosticsResponse>;
