import { z } from 'zod';
import { DateTime, Slug, UsdAmount, Uuid } from './common';

/**
 * Spec §2.2: a quote, "price and wallet clearance"; only `quote_id` is shown, the rest is ours
 * (docs/decisions.md Q1). Issued and stored by the wallet service. The quote-first issue adds the
 * quote endpoint and paid prices; the crt run (spec §4.5) issues a zero-price quote of its own when
 * the client did not quote first.
 */
export const WalletClearance = z
  .object({
    /** True when the wallet and the spend cap allow a run at this price (spec §1.6: false is a hard stop). */
    cleared: z.boolean(),
    /** Why: e.g. "free capability: no funds needed", "balance 0.50 USD is below the price 1.00 USD". */
    reason: z.string(),
  })
  .strict();
export type WalletClearance = z.infer<typeof WalletClearance>;

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
  })
  .strict()
  .describe('A price and wallet clearance for one capability input (spec §2.2).');
export type Quote = z.infer<typeof Quote>;
