import { z } from 'zod';
import { DateTime, Scope, UsdAmount, Uuid } from './common';

/** 200 body of GET /api/account/whoami: who the presented API key belongs to. */
export const WhoAmIResponse = z.object({
  ok: z.literal(true),
  client_id: Uuid,
  client_name: z.string(),
  // Public part of the key (never the secret), e.g. for matching against `pnpm admin keys list`.
  key_id: z.string(),
  scopes: z.array(Scope),
});
export type WhoAmIResponse = z.infer<typeof WhoAmIResponse>;

/**
 * 200 body of GET /api/account/balance (spec §4.12 "wallet and spend controls"; shape is ours).
 * All amounts are UsdAmount strings:
 * - `balance_usd`: credits + adjustments - captures;
 * - `held_usd`: open holds (quoted or running work not yet captured or released);
 * - `spent_usd`: captures in the current period;
 * - `spend_cap_usd`: the client's optional cap per period (spec §1.6), null when none;
 * - `remaining_usd`: what may still be spent = max(0, min(balance - held, cap - spent - held)), the
 *   cap term only when a cap exists (open holds count against both: they will be captured or
 *   released). The balance always exists, so this is never null.
 * `period` is the current calendar month in UTC: [start, end).
 */
export const BalanceResponse = z.object({
  ok: z.literal(true),
  client_id: Uuid,
  currency: z.literal('USD'),
  balance_usd: UsdAmount,
  held_usd: UsdAmount,
  spent_usd: UsdAmount,
  spend_cap_usd: UsdAmount.nullable(),
  remaining_usd: UsdAmount,
  period: z.object({ start: DateTime, end: DateTime }),
});
export type BalanceResponse = z.infer<typeof BalanceResponse>;
