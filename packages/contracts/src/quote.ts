import { z } from 'zod';
import { ClientType, DateTime, Slug, UsdAmount, Uuid } from './common';
import { EffectiveRunStatus } from './execution';
import { PriceDetail } from './pricing';

/**
 * Spec §2.2: a quote, "price and wallet clearance"; only `quote_id` is shown, the rest is ours
 * (docs/decisions.md Q1, Q2). Issued and stored by the wallet service.
 */
export const WalletClearance = z
  .object({
    /** True when the wallet and the spend cap allow a run at this price (spec §1.6: false is a hard stop). */
    cleared: z.boolean(),
    /** Why: e.g. "free capability: no funds needed", "balance 0.50 USD is below the price 1.00 USD". */
    reason: z.string(),
    // The figures the decision was made on (decisions Q2). Absent only on quotes stored before the
    // quote-first release and on free quotes, which need no wallet read.
    balance_usd: UsdAmount.optional().describe('Balance when quoted (credits + adjustments - captures).'),
    held_usd: UsdAmount.optional().describe('Money held by runs not yet captured or released.'),
    spend_cap_usd: UsdAmount.nullable().optional().describe('Monthly spend cap; null when none.'),
    spent_usd: UsdAmount.optional().describe('Captured this month (UTC calendar month).'),
    remaining_usd: UsdAmount.optional().describe('What may still be spent before this run.'),
    remaining_after_usd: UsdAmount.optional().describe(
      'What would remain after this run (0 when not cleared).',
    ),
  })
  .strict();
export type WalletClearance = z.infer<typeof WalletClearance>;

/**
 * Whether the capability can execute now (spec §2.1), as of the quote: `worker_available` is false
 * for a `requires_worker` capability whose runtime has no worker up (a run is accepted and waits).
 */
export const QuoteExecution = z
  .object({
    effective_status: EffectiveRunStatus,
    runtime: z.string(),
    worker_available: z.boolean(),
    message: z.string(),
  })
  .strict();
export type QuoteExecution = z.infer<typeof QuoteExecution>;

export const Quote = z
  .object({
    quote_id: Uuid,
    slug: Slug,
    price_usd: UsdAmount,
    currency: z.literal('USD'),
    wallet_clearance: WalletClearance,
    created_at: DateTime,
    /** After this instant the quote can no longer be used to start a run. */
    expires_at: DateTime,
    price_detail: PriceDetail.optional().describe('How the price was computed from the input.'),
    execution: QuoteExecution.optional().describe('Execution mode and worker availability when quoted.'),
  })
  .strict()
  .describe('A price and wallet clearance for one capability input (spec §2.2).');
export type Quote = z.infer<typeof Quote>;

/** The capability input of quote and run (spec §4.3: an object, possibly empty). Checked per capability. */
export const CapabilityInputObject = z
  .record(z.string(), z.unknown())
  .describe('The capability input; its schema is `input_schema` of the describe response.');

/** Body of POST /api/capabilities/{slug}/quote (spec §4.3). */
export const QuoteRequest = z
  .object({
    input: CapabilityInputObject.default({}),
    client_type: ClientType.default('api'),
  })
  .strict();
export type QuoteRequest = z.infer<typeof QuoteRequest>;

/** 200 body of POST /api/capabilities/{slug}/quote (spec §4.3: `quote.quote_id`). */
export const QuoteResponse = z
  .object({ ok: z.literal(true), quote: Quote })
  .strict()
  .describe('The quote (spec §4.3).');
export type QuoteResponse = z.infer<typeof QuoteResponse>;
