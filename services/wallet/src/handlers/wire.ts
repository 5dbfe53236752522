import {
  type BalanceResponse,
  type DailySpendResponse,
  type LedgerLine,
  type Quote,
  type RunLedger,
  type SpendDiagnosticsResponse,
  signedUsdFromMicros,
  type UsageStatementResponse,
  usdFromMicros,
} from '@svc/contracts';
import type { LedgerEntry, Quote as QuoteRow } from '@svc/db';
import { type BalanceSnapshot, shownUsd } from '../domain/balance';
import type { DailySpend } from '../domain/daily-spend';
import { perHourMicros, sharePct } from '../domain/diagnostics';
import { StoredQuoteDetail } from '../domain/quotes';
import type { RunLedgerSummary } from '../domain/run-ledger';
import type { SpendDiagnostics } from '../domain/spend-diagnostics';
import type { UsageStatement } from '../domain/usage-statement';

// Domain values → wire shapes (docs/decisions.md D6: USD decimal strings, RFC 3339 instants).

/**
 * A UsdAmount is non-negative; a balance pushed below zero by a debit adjustment is shown as 0
 * (docs/decisions.md W2; remaining is 0 then as well).
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

/**
 * Stored quote → wire Quote (spec §2.2; docs/decisions.md Q1, Q2). The clearance and price detail
 * come from `detail` as issued; a quote stored before `detail` existed shows its columns only.
 */
export function toQuoteResponse(row: QuoteRow): Quote {
  const detail = StoredQuoteDetail.safeParse(row.detail);
  return {
    quote_id: row.id,
    slug: row.slug,
    price_usd: usdFromMicros(row.priceMicros),
    currency: 'USD',
    wallet_clearance: detail.success
      ? detail.data.wallet_clearance
      : { cleared: row.cleared, reason: row.clearance },
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    ...(detail.success && detail.data.price_detail !== undefined
      ? { price_detail: detail.data.price_detail }
      : {}),
  };
}

export function toLedgerLine(entry: LedgerEntry): LedgerLine {
  return {
    entry_id: entry.id,
    kind: entry.kind,
    amount_usd: signedUsdFromMicros(entry.amountMicros),
    run_id: entry.runId,
    slug: entry.slug,
    note: entry.note,
    created_at: entry.createdAt.toISOString(),
  };
}

export function toRunLedger(summary: RunLedgerSummary): RunLedger {
  return {
    lines: summary.lines.map(toLedgerLine),
    held_usd: usdFromMicros(summary.heldMicros),
    charged_usd: usdFromMicros(summary.chargedMicros),
    settled: summary.settled,
  };
}

export function toUsageStatementResponse(statement: UsageStatement): UsageStatementResponse {
  return {
    ok: true,
    client_id: statement.clientId,
    currency: 'USD',
    period: { start: statement.period.start.toISOString(), end: statement.period.end.toISOString() },
    slug: statement.slug,
    lines: statement.lines.map((line) => ({
      run_id: line.runId,
      slug: line.slug,
      amount_usd: usdFromMicros(line.amountMicros),
      captured_at: line.capturedAt.toISOString(),
    })),
    lines_truncated: statement.linesTruncated,
    by_capability: statement.byCapability.map((usage) => ({
      slug: usage.slug,
      runs: usage.runs,
      spent_usd: usdFromMicros(usage.spentMicros),
    })),
    totals: { runs: statement.totals.runs, spent_usd: usdFromMicros(statement.totals.spentMicros) },
  };
}

export function toSpendDiagnosticsResponse(diagnostics: SpendDiagnostics): SpendDiagnosticsResponse {
  const { snapshot, projection } = diagnostics;
  return {
    ok: true,
    client_id: snapshot.clientId,
    currency: 'USD',
    as_of: diagnostics.asOf.toISOString(),
    balance_usd: shownUsd(snapshot.balanceMicros),
    held_usd: usdFromMicros(snapshot.heldMicros),
    spend_cap_usd: snapshot.spendCapMicros === null ? null : usdFromMicros(snapshot.spendCapMicros),
    spent_this_period_usd: shownUsd(snapshot.spentMicros),
    remaining_usd: usdFromMicros(snapshot.remainingMicros),
    burn_rate: diagnostics.windows.map((spend) => ({
      window: spend.window,
      spent_usd: usdFromMicros(spend.spentMicros),
      runs: spend.runs,
      usd_per_hour: usdFromMicros(perHourMicros(spend)),
    })),
    projection: {
      basis_window: projection.basisWindow,
      usd_per_hour: usdFromMicros(projection.perHourMicros),
      cap_reached_at: projection.capReachedAt?.toISOString() ?? null,
      balance_empty_at: projection.balanceEmptyAt?.toISOString() ?? null,
      note: projection.note,
    },
    top_capabilities: diagnostics.topCapabilities.map((usage) => ({
      slug: usage.slug,
      runs: usage.runs,
      spent_usd: usdFromMicros(usage.spentMicros),
      share_pct: sharePct(usage.spentMicros, diagnostics.periodSpentMicros),
    })),
  };
}

export function toDailySpendResponse(series: DailySpend): DailySpendResponse {
  return {
    client_id: series.clientId,
    currency: 'USD',
    days: series.days.map((day) => ({
      date: day.date,
      spent_usd: usdFromMicros(day.spentMicros),
      runs: day.runs,
    })),
    total_usd: usdFromMicros(series.totals.spentMicros),
    runs: series.totals.runs,
  };
}
