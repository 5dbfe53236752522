import { formatColumns } from './columns';
import type { LoadResult } from './load';

/** The catalog table; the last columns compare throughput with the baseline row. */
export function formatTable(rows: LoadResult[], baseline: LoadResult): string {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline', 'non-2xx', 'errors'];
  const body = rows.map((r) => [
    r.name,
    r.requestsPerSecond.toFixed(0),
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    `${((r.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(0)}%`,
    String(r.non2xx),
    String(r.errors),
  ]);
  return formatColumns(header, body);
}

/** `a / b` as `0.27×` (two decimals below 10, else one); `-` when b is 0 or either is not a number. */
export function formatRatio(a: number, b: number): string {
  const ratio = a / b;
  if (!Number.isFinite(ratio)) return '-';
  return `${ratio < 10 ? ratio.toFixed(2) : ratio.toFixed(1)}×`;
}

/**
 * One line of a scenario's summary: what was compared, the ratio measured in this run, and the
 * issue's target beside it (`met` / `MISSED`), e.g.
 * `ratio crt runs/s ÷ BullMQ round trips/s = 0.27× (target ≥ 0.25×: met)`.
 */
export function ratioLine(
  label: string,
  a: number,
  b: number,
  target?: { atLeast?: number; atMost?: number },
): string {
  const ratio = a / b;
  let verdict = '';
  if (target?.atLeast !== undefined) {
    verdict = ` (target ≥ ${target.atLeast}×: ${ratio >= target.atLeast ? 'met' : 'MISSED'})`;
  } else if (target?.atMost !== undefined) {
    verdict = ` (target ≤ ${target.atMost}×: ${ratio <= target.atMost ? 'met' : 'MISSED'})`;
  }
  return `ratio ${label} = ${formatRatio(a, b)}${verdict}`;
}
