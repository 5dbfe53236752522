/**
 * Markdown pieces of the generated tables. Output is deterministic (the test compares it with the
 * committed doc byte for byte), so nothing here depends on time, locale or object key order beyond
 * the order the code declares.
 */

/** A table cell: pipes escaped and line breaks folded, so a description can never break the row. */
export function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

/** `text` in backticks (a name, a value), or the dash of an empty cell. */
export function code(text: string | undefined): string {
  return text === undefined || text === '' ? '—' : `\`${text}\``;
}

/** A Markdown table; every row must have as many cells as `header`. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  for (const row of rows) {
    if (row.length !== header.length) {
      throw new Error(`table row has ${row.length} cells, header ${header.length}: ${row.join(' | ')}`);
    }
  }
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A whole number with `_` every three digits, as the code spells it (`900_000`). */
export function groupedNumber(value: number): string {
  if (!Number.isSafeInteger(value)) return String(value);
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '_');
}

/**
 * A duration in ms as people read it (`15 min`, `1 h`, `30 s`), or undefined when it is not a whole
 * number of such units; shown beside the raw default.
 */
export function humanMs(ms: number): string | undefined {
  const units: ReadonlyArray<[number, string]> = [
    [24 * 3_600_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1_000, 's'],
  ];
  for (const [size, unit] of units) if (ms >= size && ms % size === 0) return `${ms / size} ${unit}`;
  return undefined;
}

/** A size in bytes as people read it (`64 MiB`), or undefined when it is not a whole KiB, MiB or GiB. */
export function humanBytes(bytes: number): string | undefined {
  const units: ReadonlyArray<[number, string]> = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ];
  for (const [size, unit] of units) if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  return undefined;
}
