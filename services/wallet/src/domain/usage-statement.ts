import { USAGE_MAX_SPAN_MS } from '@svc/contracts';
import { type LedgerDb, Prisma, type PrismaClient, type SpendPeriod, spendPeriod } from '@svc/db';
import { ValidationError } from '@svc/errors';

// Usage statement (spec §4.13, docs/decisions.md W5): the client's charged runs (capture lines) in
// a period. Every capture the wallet writes has a run id and a slug (settleRun copies the hold's);
// a capture without a run id cannot appear in a statement line, so all figures leave it out alike.

/** Slug shown for a capture written without one (only lines from before the quote-first issue). */
const UNKNOWN_SLUG = 'unknown';
const DAY_MS = 86_400_000;

export interface UsageStatementRequest {
  clientId: string;
  /** RFC 3339 instants; default: the current UTC calendar month. `to` is exclusive. */
  from?: string;
  to?: string;
  slug?: string;
  /** Most recent lines returned; totals always cover the whole period. */
  limit: number;
}

export interface UsageLineRow {
  runId: string;
  slug: string;
  /** micro-USD charged, positive. */
  amountMicros: bigint;
  capturedAt: Date;
}

export interface CapabilitySpend {
  slug: string;
  runs: number;
  /** micro-USD, positive. */
  spentMicros: bigint;
}

export interface UsageStatement {
  clientId: string;
  period: SpendPeriod;
  slug: string | null;
  /** Newest first, at most `limit`. */
  lines: UsageLineRow[];
  linesTruncated: boolean;
  /** Largest spend first (ties by slug). */
  byCapability: CapabilitySpend[];
  totals: { runs: number; spentMicros: bigint };
}

/**
 * Pure: the statement's period. Each bound defaults to the current UTC month's; 422 unless
 * from < to and the span is at most USAGE_MAX_SPAN_MS (366 days).
 */
export function resolveUsagePeriod(query: { from?: string; to?: string }, now: Date): SpendPeriod {
  const month = spendPeriod(now);
  const start = query.from === undefined ? month.start : new Date(query.from);
  const end = query.to === undefined ? month.end : new Date(query.to);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) {
    throw new ValidationError('from and to must be RFC 3339 date-times');
  }
  if (start.getTime() >= end.getTime()) {
    throw new ValidationError(
      `from (${start.toISOString()}) must be before to (${end.toISOString()}): the period is [from, to)`,
    );
  }
  if (end.getTime() - start.getTime() > USAGE_MAX_SPAN_MS) {
    throw new ValidationError(
      `the period from ${start.toISOString()} to ${end.toISOString()} is longer than the ${USAGE_MAX_SPAN_MS / DAY_MS} days one statement covers`,
    );
  }
  return { start, end };
}

/**
 * The client's charged-run captures in [period.start, period.end), optionally of one slug only: the
 * FROM … WHERE of every usage figure (statements, daily spend).
 */
export function capturesIn(clientId: string, period: SpendPeriod, slug: string | null): Prisma.Sql {
  return Prisma.sql`FROM wallet.ledger_entries
    WHERE client_id = ${clientId}::uuid AND kind = 'capture' AND run_id IS NOT NULL
      AND created_at >= ${period.start} AND created_at < ${period.end}
      AND (${slug}::text IS NULL OR slug = ${slug}::text)`;
}

/** Per capability over [period.start, period.end), largest spend first; optionally one slug only. */
export async function spendByCapability(
  db: LedgerDb,
  clientId: string,
  period: SpendPeriod,
  slug: string | null,
): Promise<CapabilitySpend[]> {
  const rows = await db.$queryRaw<Array<{ slug: string; runs: number; spent_micros: bigint }>>`
    SELECT COALESCE(slug, ${UNKNOWN_SLUG}) AS slug, COUNT(*)::int AS runs,
           (-SUM(amount_micros))::bigint AS spent_micros
    ${capturesIn(clientId, period, slug)}
    GROUP BY 1
    ORDER BY spent_micros DESC, slug ASC`;
  return rows.map((row) => ({ slug: row.slug, runs: row.runs, spentMicros: BigInt(row.spent_micros) }));
}

/** The captures of the period, newest first, up to `limit` (+1 read to know whether more exist). */
async function usageLines(
  db: LedgerDb,
  clientId: string,
  period: SpendPeriod,
  slug: string | null,
  limit: number,
): Promise<UsageLineRow[]> {
  const rows = await db.$queryRaw<
    Array<{ run_id: string; slug: string; amount_micros: bigint; created_at: Date }>
  >`
    SELECT run_id::text AS run_id, COALESCE(slug, ${UNKNOWN_SLUG}) AS slug,
           (-amount_micros)::bigint AS amount_micros, created_at
    ${capturesIn(clientId, period, slug)}
    ORDER BY created_at DESC, run_id DESC
    LIMIT ${limit + 1}`;
  return rows.map((row) => ({
    runId: row.run_id,
    slug: row.slug,
    amountMicros: BigInt(row.amount_micros),
    capturedAt: row.created_at,
  }));
}

/**
 * The statement of `request` as of `now` (which only supplies the default period). Lines and totals
 * are read in one REPEATABLE READ transaction: a capture committed in between cannot appear in one
 * and not in the other.
 */
export async function usageStatement(
  prisma: PrismaClient,
  request: UsageStatementRequest,
  options: { now?: Date } = {},
): Promise<UsageStatement> {
  const period = resolveUsagePeriod(request, options.now ?? new Date());
  const slug = request.slug ?? null;
  const { lines, byCapability } = await prisma.$transaction(
    async (tx) => ({
      lines: await usageLines(tx, request.clientId, period, slug, request.limit),
      byCapability: await spendByCapability(tx, request.clientId, period, slug),
    }),
    { isolationLevel: 'RepeatableRead' },
  );
  return {
    clientId: request.clientId,
    period,
    slug,
    lines: lines.slice(0, request.limit),
    linesTruncated: lines.length > request.limit,
    byCapability,
    totals: {
      runs: byCapability.reduce((sum, usage) => sum + usage.runs, 0),
      spentMicros: byCapability.reduce((sum, usage) => sum + usage.spentMicros, 0n),
    },
  };
}
