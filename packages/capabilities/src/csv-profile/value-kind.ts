/**
 * What one non-empty CSV cell looks like, from the narrowest kind up (csv-profile type inference).
 * Kept strict so a column is only called numeric or temporal when every value really is:
 *
 * - integer: an optional sign and digits without leading zeros (`007`, a ZIP or an id, is text);
 *   integers and numbers must be finite doubles (400 digits, like `1e999`, are text);
 * - number: a decimal with a `.` and/or an exponent (`1.5`, `-.5`, `1e3`); no thousands separators;
 * - boolean: `true` or `false`, any case (not yes/no or 0/1: those are ambiguous);
 * - date: an ISO 8601 calendar date `YYYY-MM-DD` that exists;
 * - datetime: a date, `T` or a space, `HH:MM[:SS[.fraction]]` and an optional `Z` or `±HH[:]MM`;
 * - string: anything else.
 */
export type ValueKind = 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'string';

const INTEGER = /^[+-]?(?:0|[1-9]\d*)$/;
const NUMBER = /^[+-]?(?:(?:0|[1-9]\d*)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?$/;

function isCalendarDate(year: string, month: string, day: string): boolean {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1) return false;
  // Day 0 of the next month is the last day of this one (UTC: no DST edge).
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The kind of a cell that is not empty (callers treat blank cells as nulls). */
export function valueKind(value: string): ValueKind {
  // Finite only: a value past Number.MAX_VALUE would make min/max/mean Infinity, which no JSON carries.
  const numeric = (pattern: RegExp) => pattern.test(value) && Number.isFinite(Number(value));
  if (numeric(INTEGER)) return 'integer';
  if (numeric(NUMBER)) return 'number';
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === 'false') return 'boolean';
  const date = DATE.exec(value);
  if (date) return isCalendarDate(date[1] ?? '', date[2] ?? '', date[3] ?? '') ? 'date' : 'string';
  const datetime = DATETIME.exec(value);
  if (datetime)
    return isCalendarDate(datetime[1] ?? '', datetime[2] ?? '', datetime[3] ?? '') ? 'datetime' : 'string';
  return 'string';
}

/** Column type so far (`empty` until the first value) joined with one more value's kind. */
export type ColumnType = 'empty' | ValueKind;

export function joinKinds(type: ColumnType, kind: ValueKind): ColumnType {
  if (type === 'empty' || type === kind) return kind;
  // Integers are numbers; a calendar date fits a column of timestamps (as midnight).
  if ((type === 'integer' && kind === 'number') || (type === 'number' && kind === 'integer')) return 'number';
  if ((type === 'date' && kind === 'datetime') || (type === 'datetime' && kind === 'date')) return 'datetime';
  return 'string';
}
