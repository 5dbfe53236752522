import { BURN_WINDOWS, type BurnWindow } from '@svc/contracts';
import type { LedgerDb, PrismaClient } from '@svc/db';
import { type BalanceSnapshot, getBalance } from './balance';
import { type Projection, projectSpend, WINDOW_MS, type WindowSpend } from './diagnostics';
import { type CapabilitySpend, spendByCapability } from './usage-statement';

/** How many capabilities the diagnostics name (largest spenders of the period). */
export const TOP_CAPABILITIES = 5;

export interface SpendDiagnostics {
  asOf: Date;
  snapshot: BalanceSnapshot;
  windows: WindowSpend[];
  projection: Projection;
  /** This period's largest spenders (at most TOP_CAPABILITIES), with the period's total to share against. */
  topCapabilities: CapabilitySpend[];
  periodSpentMicros: bigint;
}

/**
 * Captures in each trailing window (now − length, now]: a capture at `now` itself counts, one exactly
 * a window's length ago does not. One statement, one snapshot.
 */
export async function windowSpends(db: LedgerDb, clientId: string, now: Date): Promise<WindowSpend[]> {
  const since = (window: BurnWindow) => new Date(now.getTime() - WINDOW_MS[window]);
  const rows = await db.$queryRaw<
    Array<{
      spent_1h: bigint;
      runs_1h: number;
      spent_24h: bigint;
      runs_24h: number;
      spent_7d: bigint;
      runs_7d: number;
    }>
  >`
    SELECT
      COALESCE(-SUM(amount_micros) FILTER (WHERE created_at > ${since('1h')}), 0)::bigint AS spent_1h,
      (COUNT(*) FILTER (WHERE created_at > ${since('1h')}))::int AS runs_1h,
      COALESCE(-SUM(amount_micros) FILTER (WHERE created_at > ${since('24h')}), 0)::bigint AS spent_24h,
      (COUNT(*) FILTER (WHERE created_at > ${since('24h')}))::int AS runs_24h,
      COALESCE(-SUM(amount_micros), 0)::bigint AS spent_7d,
      COUNT(*)::int AS runs_7d
    FROM wallet.ledger_entries
    WHERE client_id = ${clientId}::uuid AND kind = 'capture' AND run_id IS NOT NULL
      AND created_at > ${since('7d')} AND created_at <= ${now}`;
  const row = rows[0];
  if (!row) throw new Error('spend window query returned no row');
  const byWindow: Record<BurnWindow, WindowSpend> = {
    '1h': { window: '1h', spentMicros: BigInt(row.spent_1h), runs: row.runs_1h },
    '24h': { window: '24h', spentMicros: BigInt(row.spent_24h), runs: row.runs_24h },
    '7d': { window: '7d', spentMicros: BigInt(row.spent_7d), runs: row.runs_7d },
  };
  return BURN_WINDOWS.map((window) => byWindow[window]);
}

/**
 * Burn rate, projection and top capabilities as of `now` (spec §4.14). Read in one REPEATABLE
 * READ transaction so the balance, the windows and the period's spend agree with each other.
 */
export async function spendDiagnostics(
  prisma: PrismaClient,
  clientId: string,
  options: { now?: Date } = {},
): Promise<SpendDiagnostics> {
  const now = options.now ?? new Date();
  const { snapshot, windows, byCapability } = await prisma.$transaction(
    async (tx) => {
      const snapshot = await getBalance(tx, clientId, { now });
      return {
        snapshot,
        windows: await windowSpends(tx, clientId, now),
        byCapability: await spendByCapability(tx, clientId, snapshot.period, null),
      };
    },
    { isolationLevel: 'RepeatableRead' },
  );
  const projection = projectSpend({ ...snapshot, now, periodEnd: snapshot.period.end, windows });
  return {
    asOf: now,
    snapshot,
    windows,
    projection,
    topCapabilities: byCapability.slice(0, TOP_CAPABILITIES),
    periodSpentMicros: byCapability.reduce((sum, usage) => sum + usage.spentMicros, 0n),
  };
}
