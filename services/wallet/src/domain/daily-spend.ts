import type { PrismaClient, SpendPeriod } from '@svc/db';
import { capturesIn } from './usage-statement';

// Daily spend (issue 18, the dashboard's chart): the usage statement's charged runs (capture lines
// with a run id) summed per UTC calendar day, so the chart and the statement never disagree.

const DAY_MS = 86_400_000;

export interface SpendDay {
  /** UTC calendar day, YYYY-MM-DD. */
  date: string;
  runs: number;
  /** micro-USD charged that day, positive. */
  spentMicros: bigint;
}

export interface DailySpend {
  clientId: string;
  /** Every day of the series, oldest first; today (UTC) is the last. */
  days: SpendDay[];
  totals: { runs: number; spentMicros: bigint };
}

/** Pure: the `days` whole UTC days ending with the one that contains `now`, as [start, end). */
export function dailySpendPeriod(now: Date, days: number): SpendPeriod {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { start: new Date(end - days * DAY_MS), end: new Date(end) };
}

/** `wallet.dailySpend`: the client's captures per UTC day over the last `days` days, zero days included. */
export async function dailySpend(
  prisma: PrismaClient,
  request: { clientId: string; days: number },
  options: { now?: Date } = {},
): Promise<DailySpend> {
  const period = dailySpendPeriod(options.now ?? new Date(), request.days);
  const rows = await prisma.$queryRaw<Array<{ day: string; runs: number; spent_micros: bigint }>>`
    SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, COUNT(*)::int AS runs,
           (-SUM(amount_micros))::bigint AS spent_micros
    ${capturesIn(request.clientId, period, null)}
    GROUP BY 1`;
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const days: SpendDay[] = [];
  for (let at = period.start.getTime(); at < period.end.getTime(); at += DAY_MS) {
    const date = new Date(at).toISOString().slice(0, 10);
    const row = byDay.get(date);
    days.push({ date, runs: row?.runs ?? 0, spentMicros: row ? BigInt(row.spent_micros) : 0n });
  }
  return {
    clientId: request.clientId,
    days,
    totals: {
      runs: days.reduce((sum, day) => sum + day.runs, 0),
      spentMicros: days.reduce((sum, day) => sum + day.spentMicros, 0n),
    },
  };
}
