import { usdFromMicros } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';

/**
 * A client's wallet, derived from the append-only ledger (docs/decisions.md P6: balances are never
 * stored). Every amount is micro-USD (1 USD = 1,000,000), as in the database.
 */
export interface BalanceSnapshot {
  clientId: string;
  /** credits + adjustments + captures (captures are stored negative). Can be < 0 after a debit adjustment. */
  balanceMicros: bigint;
  /** Open holds: hold lines whose run has neither a capture nor a release line yet (>= 0). */
  heldMicros: bigint;
  /** Captures inside `period`, as a positive amount. */
  spentMicros: bigint;
  /** Spend cap per period (spec §1.6, §8); null = no cap. */
  spendCapMicros: bigint | null;
  /** What may still be spent now (>= 0); see `remainingMicros`. */
  remainingMicros: bigint;
  /** The spend period: the calendar month (UTC) containing `now`, [start, end). */
  period: SpendPeriod;
}

export interface SpendPeriod {
  start: Date;
  end: Date;
}

/** The calendar month in UTC that contains `now`, as [first instant, first instant of next month). */
export function spendPeriod(now: Date): SpendPeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  // Date.UTC rolls month 12 over into January of the next year.
  return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
}

/**
 * What may still be spent: held money is already promised, so it counts against both limits.
 * - the balance: balance − held;
 * - the cap, when there is one: cap − spent − held (a hold becomes spending once captured).
 * The smaller one binds; never below 0 (a lowered cap or a debit adjustment can overshoot).
 */
export function remainingMicros(input: {
  balanceMicros: bigint;
  heldMicros: bigint;
  spentMicros: bigint;
  spendCapMicros: bigint | null;
}): bigint {
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

/** One row of the aggregate below; SUM(bigint) is numeric in PostgreSQL, cast back to bigint. */
interface LedgerTotalsRow {
  spend_cap_micros: bigint | null;
  balance_micros: bigint;
  spent_micros: bigint;
  held_micros: bigint;
}

export interface GetBalanceOptions {
  /** Clock for the spend period (tests pin it); default: now. */
  now?: Date;
}

/**
 * Reads a client's balance in one SQL statement, so every total comes from the same snapshot
 * (a capture committed between two separate reads could otherwise be counted in one total only).
 *
 * A client with no account row and no ledger lines gets zeros and a null cap, not an error: the
 * wallet does not know which clients exist (auth.clients belongs to the gateway).
 *
 * Sign conventions (docs/architecture.md "Tables"): credits +, captures −, adjustments either way.
 * The sign of hold lines is not fixed there, so a hold reserves |amount|. Release lines only close
 * a hold; their amount does not enter any total.
 */
export async function getBalance(
  prisma: PrismaClient,
  clientId: string,
  options: GetBalanceOptions = {},
): Promise<BalanceSnapshot> {
  const period = spendPeriod(options.now ?? new Date());
  const rows = await prisma.$queryRaw<LedgerTotalsRow[]>`
    WITH lines AS (
      SELECT kind::text AS kind, amount_micros, run_id, created_at
      FROM wallet.ledger_entries
      WHERE client_id = ${clientId}::uuid
    ),
    settled_runs AS (
      SELECT DISTINCT run_id FROM lines WHERE kind IN ('capture', 'release') AND run_id IS NOT NULL
    )
    SELECT
      (SELECT spend_cap_micros FROM wallet.accounts WHERE client_id = ${clientId}::uuid) AS spend_cap_micros,
      COALESCE(SUM(amount_micros) FILTER (WHERE kind IN ('credit', 'adjustment', 'capture')), 0)::bigint
        AS balance_micros,
      COALESCE(-SUM(amount_micros) FILTER (
        WHERE kind = 'capture' AND created_at >= ${period.start} AND created_at < ${period.end}
      ), 0)::bigint AS spent_micros,
      COALESCE(SUM(ABS(amount_micros)) FILTER (
        WHERE kind = 'hold' AND NOT EXISTS (SELECT 1 FROM settled_runs s WHERE s.run_id = lines.run_id)
      ), 0)::bigint AS held_micros
    FROM lines`;
  // An aggregate without GROUP BY always yields exactly one row.
  const row = rows[0];
  if (!row) throw new Error('wallet balance query returned no row');

  const totals = {
    balanceMicros: BigInt(row.balance_micros),
    heldMicros: BigInt(row.held_micros),
    spentMicros: BigInt(row.spent_micros),
    spendCapMicros: row.spend_cap_micros === null ? null : BigInt(row.spend_cap_micros),
  };
  return { clientId, ...totals, remainingMicros: remainingMicros(totals), period };
}

/**
 * micro-USD → "1.50" as clients see it: a negative amount (a debt, a cap already passed) shows as 0
 * (docs/decisions.md W2).
 */
export function shownUsd(micros: bigint): string {
  return usdFromMicros(micros < 0n ? 0n : micros);
}
