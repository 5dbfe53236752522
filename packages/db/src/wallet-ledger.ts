import type { Prisma } from './generated/prisma/client';

// The per-client lock and the totals reads of the wallet ledger (docs/decisions.md W1, W3, W7),
// shared by the wallet service and the operator CLI (`pnpm admin set-balance`) so neither copies
// them. Both take a Prisma.TransactionClient; a PrismaClient is one too (it has every method a
// transaction client has), so a plain read works outside a transaction.

/** Where ledger reads and writes go: a transaction, or the client itself for a single read. */
export type LedgerDb = Prisma.TransactionClient;

/** The spend period of a cap: [start, end), the calendar month in UTC (docs/decisions.md W1). */
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
 * Serializes the money moves of one client: creates the client's `wallet.accounts` row when missing
 * (a client with no account has no cap) and takes its row lock until the transaction ends. Every
 * hold, settlement and adjustment calls this first, then reads the totals and writes its line, so
 * two concurrent holds can never both spend the same remaining amount. Only meaningful inside an
 * interactive transaction (`prisma.$transaction(async (tx) => …)`): outside one the lock is
 * released as soon as the statement ends.
 */
export async function lockWalletAccount(tx: LedgerDb, clientId: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO wallet.accounts (client_id, updated_at) VALUES (${clientId}::uuid, now())
    ON CONFLICT (client_id) DO NOTHING`;
  await tx.$queryRaw`SELECT 1 FROM wallet.accounts WHERE client_id = ${clientId}::uuid FOR UPDATE`;
}

/** A client's ledger totals; every amount in micro-USD (1 USD = 1,000,000). */
export interface LedgerTotals {
  /** credits + adjustments + captures (captures are stored negative). Can be < 0 after a debit adjustment. */
  balanceMicros: bigint;
  /** Open holds: hold lines whose run has neither a capture nor a release line yet (>= 0). */
  heldMicros: bigint;
  /** Captures inside the period, as a positive amount. */
  spentMicros: bigint;
  /** Spend cap per period (spec §1.6, §8); null = no cap (or no account row). */
  spendCapMicros: bigint | null;
}

/** One row of the totals reads below; SUM(bigint) is numeric in PostgreSQL, cast back to bigint. */
interface LedgerTotalsRow {
  spend_cap_micros: bigint | null;
  balance_micros: bigint;
  spent_micros: bigint;
  held_micros: bigint;
}

function totalsOf(row: LedgerTotalsRow | undefined): LedgerTotals {
  if (!row) return { balanceMicros: 0n, heldMicros: 0n, spentMicros: 0n, spendCapMicros: null };
  return {
    balanceMicros: BigInt(row.balance_micros),
    heldMicros: BigInt(row.held_micros),
    spentMicros: BigInt(row.spent_micros),
    spendCapMicros: row.spend_cap_micros === null ? null : BigInt(row.spend_cap_micros),
  };
}

/**
 * A client's totals for a spend period (a calendar month from spendPeriod()), without reading its
 * ledger history: what the ledger's insert trigger keeps in the transaction of every line
 * (docs/decisions.md W7) — the balance on `wallet.accounts`, the month's spend on
 * `wallet.account_periods`, the open holds in `wallet.open_holds` (only runs in flight) — read in
 * one statement. Inside a
 * transaction that holds lockWalletAccount they cannot move under the caller.
 *
 * A client with no account row gets zeros and a null cap, not an error: the wallet does not know
 * which clients exist (auth.clients belongs to the gateway).
 */
export async function ledgerTotals(
  db: LedgerDb,
  clientId: string,
  period: SpendPeriod,
): Promise<LedgerTotals> {
  const rows = await db.$queryRaw<LedgerTotalsRow[]>`
    SELECT a.spend_cap_micros, a.balance_micros,
      COALESCE((
        SELECT p.spent_micros FROM wallet.account_periods p
        WHERE p.client_id = a.client_id AND p.period_start = ${period.start}
      ), 0)::bigint AS spent_micros,
      COALESCE((SELECT SUM(o.amount_micros) FROM wallet.open_holds o WHERE o.client_id = a.client_id), 0)::bigint
        AS held_micros
    FROM wallet.accounts a
    WHERE a.client_id = ${clientId}::uuid`;
  return totalsOf(rows[0]);
}

/**
 * The same totals summed from the ledger lines themselves (O(lines of the client)): the definition
 * the running totals must always equal. For consistency checks (tests, audits), never on a hot path.
 *
 * Sign conventions (docs/decisions.md W3): credits +, captures −, adjustments either way, holds −.
 * A hold reserves |amount| until its run has a capture or release line; a release's amount enters
 * no total.
 */
export async function recomputeLedgerTotals(
  db: LedgerDb,
  clientId: string,
  period: SpendPeriod,
): Promise<LedgerTotals> {
  // Each total is its own scan of the client's lines (index on client_id, kind, created_at); the
  // open-hold test is an anti-join through the unique (run_id, kind) index. (The first version
  // tested holds against a CTE inside the aggregate's FILTER: a per-row subplan, quadratic in the
  // history: over 100 s at 100,000 lines; `pnpm bench ledger`.)
  const rows = await db.$queryRaw<LedgerTotalsRow[]>`
    SELECT
      (SELECT spend_cap_micros FROM wallet.accounts WHERE client_id = ${clientId}::uuid) AS spend_cap_micros,
      (SELECT COALESCE(SUM(amount_micros), 0)::bigint FROM wallet.ledger_entries
        WHERE client_id = ${clientId}::uuid AND kind IN ('credit', 'adjustment', 'capture')) AS balance_micros,
      (SELECT COALESCE(-SUM(amount_micros), 0)::bigint FROM wallet.ledger_entries
        WHERE client_id = ${clientId}::uuid AND kind = 'capture'
          AND created_at >= ${period.start} AND created_at < ${period.end}) AS spent_micros,
      (SELECT COALESCE(SUM(ABS(h.amount_micros)), 0)::bigint FROM wallet.ledger_entries h
        WHERE h.client_id = ${clientId}::uuid AND h.kind = 'hold' AND NOT EXISTS (
          SELECT 1 FROM wallet.ledger_entries s
          WHERE s.run_id = h.run_id AND s.kind IN ('capture', 'release') AND s.client_id = h.client_id
        )) AS held_micros`;
  return totalsOf(rows[0]);
}
