import type { CsvColumnProfile } from './schema';
import { type ColumnType, joinKinds, valueKind } from './value-kind';

/**
 * characters: string min/max compare (and report) the first 256 characters of a value, so a column
 * of huge cells keeps two short strings, not two megabytes.
 */
export const STRING_BOUND_CHARS = 256;

/**
 * 53-bit hash of a string (cyrb53, public domain): distinct values are counted as hashes, so the
 * memory of a column's distinct set does not grow with the length of its values. Two different
 * values share a hash with odds of about n²/2⁵⁴ — below 10⁻⁸ at the 10,000 values counted exactly.
 */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * Running statistics of one column, in memory bounded whatever the file's length: counts, the
 * inferred type, numeric min/max/mean (running mean, no sum to overflow), string min/max of the
 * first STRING_BOUND_CHARS characters, and distinct values as hashes up to `distinctLimit` (past it
 * the count stops and is a lower bound: `distinct_exact` false).
 */
export class ColumnStats {
  #type: ColumnType = 'empty';
  #nulls = 0;
  #numbers = 0;
  #mean = 0;
  #numericMin = Number.POSITIVE_INFINITY;
  #numericMax = Number.NEGATIVE_INFINITY;
  #textMin: string | null = null;
  #textMax: string | null = null;
  readonly #distinct = new Set<number>();
  #distinctOverflow = false;

  constructor(
    readonly name: string,
    private readonly distinctLimit: number,
    /** Rows before this column first appeared (a ragged row longer than the header): nulls. */
    missingRows = 0,
  ) {
    this.#nulls = missingRows;
  }

  /** One cell; `undefined` for a row too short to reach this column. Blank cells are nulls. */
  add(cell: string | undefined): void {
    if (cell === undefined || cell.trim() === '') {
      this.#nulls += 1;
      return;
    }
    const kind = valueKind(cell);
    this.#type = joinKinds(this.#type, kind);
    if (kind === 'integer' || kind === 'number') {
      const value = Number(cell);
      this.#numbers += 1;
      // Each term divided first: `value - mean` overflows to Infinity for values near ±Number.MAX_VALUE.
      this.#mean += value / this.#numbers - this.#mean / this.#numbers;
      if (value < this.#numericMin) this.#numericMin = value;
      if (value > this.#numericMax) this.#numericMax = value;
    }
    const bounded = cell.length > STRING_BOUND_CHARS ? cell.slice(0, STRING_BOUND_CHARS) : cell;
    if (this.#textMin === null || bounded < this.#textMin) this.#textMin = bounded;
    if (this.#textMax === null || bounded > this.#textMax) this.#textMax = bounded;
    if (!this.#distinctOverflow) {
      const key = hash53(cell);
      if (!this.#distinct.has(key)) {
        if (this.#distinct.size >= this.distinctLimit) this.#distinctOverflow = true;
        else this.#distinct.add(key);
      }
    }
  }

  profile(): CsvColumnProfile {
    const numeric = this.#type === 'integer' || this.#type === 'number';
    const textual = this.#type === 'date' || this.#type === 'datetime' || this.#type === 'string';
    return {
      name: this.name,
      type: this.#type,
      nulls: this.#nulls,
      // Past the limit: at least one value more than were counted.
      distinct: this.#distinct.size + (this.#distinctOverflow ? 1 : 0),
      distinct_exact: !this.#distinctOverflow,
      min: numeric ? this.#numericMin : textual ? this.#textMin : null,
      max: numeric ? this.#numericMax : textual ? this.#textMax : null,
      mean: numeric ? this.#mean : null,
    };
  }
}
