import type { ServiceHandlers } from '@svc/bus';
import type { BalanceResponse } from '@svc/contracts';
import { usdFromMicros } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { type BalanceSnapshot, getBalance } from '../domain/balance';

export interface WalletHandlerDeps {
  prisma: PrismaClient;
  /** Clock for the spend period; default: now. */
  now?: () => Date;
}

/** `rpc.wallet` methods (ping is answered by serveRpc itself). */
export function walletHandlers(deps: WalletHandlerDeps): ServiceHandlers<'wallet'> {
  const now = deps.now ?? (() => new Date());
  return {
    balance: async ({ client_id }) =>
      toBalanceResponse(await getBalance(deps.prisma, client_id, { now: now() })),
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
    balance_usd: usdFromMicros(nonNegative(snapshot.balanceMicros)),
    held_usd: usdFromMicros(snapshot.heldMicros),
    spent_usd: usdFromMicros(nonNegative(snapshot.spentMicros)),
    spend_cap_usd:
      snapshot.spendCapMicros === null ? null : usdFromMicros(nonNegative(snapshot.spendCapMicros)),
    remaining_usd: usdFromMicros(snapshot.remainingMicros),
    period: { start: snapshot.period.start.toISOString(), end: snapshot.period.end.toISOString() },
  };
}

function nonNegative(micros: bigint): bigint {
  return micros < 0n ? 0n : micros;
}
