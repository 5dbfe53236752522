import type { ServiceHandlers } from '@svc/bus';
import type { BalanceResponse, Quote } from '@svc/contracts';
import { microsFromUsd, usdFromMicros } from '@svc/contracts';
import type { PrismaClient, Quote as QuoteRow } from '@svc/db';
import { type BalanceSnapshot, getBalance, shownUsd } from '../domain/balance';
import { DEFAULT_QUOTE_TTL_MS, issueQuote } from '../domain/quotes';

export interface WalletHandlerDeps {
  prisma: PrismaClient;
  /** Clock for the spend period and quote timestamps; default: now. */
  now?: () => Date;
  /** ms: lifetime of an issued quote (QUOTE_TTL_MS); default DEFAULT_QUOTE_TTL_MS (15 min). */
  quoteTtlMs?: number;
}

/** `rpc.wallet` methods (ping is answered by serveRpc itself). */
export function walletHandlers(deps: WalletHandlerDeps): ServiceHandlers<'wallet'> {
  const now = deps.now ?? (() => new Date());
  const ttlMs = deps.quoteTtlMs ?? DEFAULT_QUOTE_TTL_MS;
  return {
    balance: async ({ client_id }) =>
      toBalanceResponse(await getBalance(deps.prisma, client_id, { now: now() })),
    issueQuote: async (request) =>
      toQuoteResponse(
        await issueQuote(
          deps.prisma,
          {
            quoteId: request.quote_id,
            clientId: request.client_id,
            slug: request.slug,
            priceMicros: microsFromUsd(request.price_usd),
            inputHash: request.input_hash,
          },
          { ttlMs, now: now() },
        ),
      ),
  };
}

/**
 * Domain snapshot → wire (docs/decisions.md D6: USD decimal strings). A UsdAmount is non-negative;
 * a balance pushed below zero by a debit adjustment is shown as 0 (remaining is 0 then as well).
 */
export function toBalanceResponse(snapshot: BalanceSnapshot): BalanceResponse {
  return {
    ok: true,
    client_id: snapshot.clientId,
    currency: 'USD',
    balance_usd: shownUsd(snapshot.balanceMicros),
    held_usd: usdFromMicros(snapshot.heldMicros),
    spent_usd: shownUsd(snapshot.spentMicros),
    spend_cap_usd: snapshot.spendCapMicros === null ? null : shownUsd(snapshot.spendCapMicros),
    remaining_usd: usdFromMicros(snapshot.remainingMicros),
    period: { start: snapshot.period.start.toISOString(), end: snapshot.period.end.toISOString() },
  };
}

/** Stored quote → wire Quote (spec §2.2; the fields beyond quote_id are docs/decisions.md Q1). */
export function toQuoteResponse(row: QuoteRow): Quote {
  return {
    quote_id: row.id,
    slug: row.slug,
    price_usd: usdFromMicros(row.priceMicros),
    currency: 'USD',
    wallet_clearance: { cleared: row.cleared, reason: row.clearance },
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}
