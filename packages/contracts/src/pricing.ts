import { z } from 'zod';
import type { Pricing } from './capability';
import { UsdAmount } from './common';
import { microsFromUsd, usdFromMicros } from './money';

/**
 * How a quote's price was reached (docs/decisions.md Q2): the pricing model of the describe response
 * applied to the input. `units` is what the input measured in the model's unit (per_unit only), and
 * `minimum_applied` says the capability's minimum price replaced units × unit price.
 */
export const PriceDetail = z
  .object({
    model: z.enum(['free', 'flat', 'per_unit']),
    unit: z.string().optional(),
    units: z.number().int().min(0).optional(),
    unit_price_usd: UsdAmount.optional(),
    minimum_usd: UsdAmount.optional(),
    minimum_applied: z.boolean().optional(),
  })
  .strict();
export type PriceDetail = z.infer<typeof PriceDetail>;

export interface ComputedPrice {
  /** micro-USD (1 USD = 1,000,000), exact. */
  micros: bigint;
  detail: PriceDetail;
}

/**
 * Applies a pricing model to `units` (what the input measures in `pricing.unit`; ignored by free and
 * flat). Exact integer arithmetic in micro-USD: per_unit = units × unit price, raised to the minimum
 * when one is set.
 */
export function computePrice(pricing: Pricing, units: number): ComputedPrice {
  switch (pricing.model) {
    case 'free':
      return { micros: 0n, detail: { model: 'free' } };
    case 'flat':
      return { micros: microsFromUsd(pricing.price_usd), detail: { model: 'flat' } };
    case 'per_unit': {
      if (!Number.isSafeInteger(units) || units < 0) {
        throw new RangeError(`units must be a non-negative safe integer, got ${units}`);
      }
      const byUnits = BigInt(units) * microsFromUsd(pricing.unit_price_usd);
      const minimum = pricing.minimum_usd === undefined ? 0n : microsFromUsd(pricing.minimum_usd);
      const minimumApplied = minimum > byUnits;
      return {
        micros: minimumApplied ? minimum : byUnits,
        detail: {
          model: 'per_unit',
          unit: pricing.unit,
          units,
          unit_price_usd: pricing.unit_price_usd,
          ...(pricing.minimum_usd === undefined ? {} : { minimum_usd: pricing.minimum_usd }),
          minimum_applied: minimumApplied,
        },
      };
    }
  }
}

/** The price as a UsdAmount string. */
export function priceUsd(price: ComputedPrice): string {
  return usdFromMicros(price.micros);
}
