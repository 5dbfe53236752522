import type { LoadResult } from './load';

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

/** A fixed-width table: the first column left-aligned, the others right-aligned (numbers). */
export function formatColumns(header: readonly string[], body: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => pad(c, widths[i] ?? 0, i > 0)).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

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
