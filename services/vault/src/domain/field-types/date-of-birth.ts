import { cleanLine } from './text';
import { fail, type NormalizeResult, ok } from './types';

/**
 * Dates of birth as ISO 8601 calendar dates (YYYY-MM-DD) only: "01/02/1990" means 1 February or
 * 2 January depending on the reader, so no other form is guessed at.
 */
export const DATE_MAX = 10;
const ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const EARLIEST = '1900-01-01';
// ms: the easternmost time zone (UTC+14, Line Islands) is this far ahead: a person born "today" there
// must not be refused as born in the future while UTC is still on the day before.
const AHEAD_OF_UTC_MS = 14 * 60 * 60 * 1000;

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one (UTC, so no DST or zone effects).
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function normalizeDateOfBirth(value: string, options: { now?: Date } = {}): NormalizeResult {
  const cleaned = cleanLine(value, DATE_MAX);
  if (!cleaned.ok) return cleaned;
  const match = ISO_DATE.exec(cleaned.value);
  if (match === null) return fail('must be a date written YYYY-MM-DD (ISO 8601)');
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return fail('must be a real calendar date');
  }
  const date = cleaned.value;
  if (date < EARLIEST) return fail(`must not be before ${EARLIEST}`);
  const now = options.now ?? new Date();
  const latest = new Date(now.getTime() + AHEAD_OF_UTC_MS).toISOString().slice(0, 10);
  if (date > latest) return fail('must not be in the future');
  return ok(date);
}

/** "1990-04-15" → "****-**-15": the day of the month only, the least identifying part (year = age). */
export function maskDateOfBirth(value: string): string {
  return `****-**-${value.slice(8, 10)}`;
}
