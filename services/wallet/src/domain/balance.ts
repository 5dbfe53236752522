import { usdFromMicros } from '@svc/contracts';
import { type LedgerDb, type LedgerTotals, ledgerTotals, type SpendPeriod, spendPeriod } from '@svc/db';

/**
 * A client's wallet, derived from the append-only ledger (docs/decisions.md P6: balances are never
 * stored): the @svc/db ledger totals (micro-USD, 1 USD = 1,000,000) plus what may still be spent.
 */
export interface BalanceSnapshot extends LedgerTotals {
  clientId: string;
  /** What may still be spent now (>= 0); see `remainingMicros`. */
  remainingMicros: bigint;
  /** The spend period: the calendar month (UTC) containing `now`, [start, end). */
  period: SpendPeriod;
}

/**
 * What may still be spent: held money is already promised, so it counts against both limits.
 * - the balance: balance − held;
 * - the cap, when there is one: cap − spent − held (a hold becomes spending once captured).
 * The smaller one binds; never below 0 (a lowered cap or a debit adjustment can overshoot).
 */
export function remainingMicros(input: LedgerTotals): bigint {
  const byBalance = input.balanceMicros - input.heldMicros;
  const byCap =
    input.spendCapMicros === null ? byBalance : input.spendCapMicros - input.spentMicros - input.heldMicros;
  const remaining = smaller(byBalance, byCap);
  return remaining > 0n ? remaining : 0n;
}

/** min() for bigint (Math.min takes numbers only, and micro-USD sums must stay exact). */
function smaller(a: bigint, b: bigint): bigint {
  if (a < b) return a;
  return b;
}

export interface GetBalanceOptions {
  /** Clock for the spend period (tests pin it); default: now. */
  now?: Date;
}

/**
 * Reads a client's balance: the totals of @svc/db `ledgerTotals` (one SQL statement, one snapshot)
 * plus what may still be spent. Pass the transaction that holds `lockWalletAccount` to read a
 * snapshot no other money move of the client can change before it commits.
 */
export async function getBalance(
  db: LedgerDb,
  clientId: string,
  options: GetBalanceOptions = {},
): Promise<BalanceSnapshot> {
  const period = spendPeriod(options.now ?? new Date());
  const totals = await ledgerTotals(db, clientId, period);
  return { clientId, ...totals, remainingMicros: remainingMicros(totals), period };
}

/**
 * micro-USD → "1.50" as clients see it: a negative amount (a debt, a cap already passed) shows as 0
 * (docs/decisions.md W2).
 */
export function shownUsd(micros: bigint): string {
  return usdFromMicros(micros < 0n ? 0n : micros);
}

/** |micros|: a hold's size whatever the sign it was written with (docs/decisions.md W3). */
export function absMicros(micros: bigint): bigint {
  return micros < 0n ? -micros : micros;
}
