export interface ParsedDate {
  /** `YYYY-MM-DD`. */
  iso: string;
  /** UTF-16 length of the date as written. */
  length: number;
  /** Written d/m/y or m/d/y with both numbers ≤ 12: read day first (see parseDateAt). */
  ambiguous: boolean;
}

/** Day-month-year or month-day-year, when a form's label says which ("Date of birth (MM/DD/YYYY)"). */
export type DateOrder = 'dmy' | 'mdy';

/** The order a label's hint states: "(DD/MM/YYYY)", "(TT.MM.JJJJ)" → dmy; "(MM/DD/YYYY)" → mdy. */
export function dateOrderHint(label: string): DateOrder | undefined {
  const hint = label.toLowerCase().replace(/\s/g, '');
  if (/\((?:dd|tt)[./-]mm[./-]/.test(hint)) return 'dmy';
  if (/\(mm[./-](?:dd|tt)[./-]/.test(hint)) return 'mdy';
  return undefined;
}

/** Month names and abbreviations, English and German, lower case. */
const MONTHS: Readonly<Record<string, number>> = {
  january: 1,
  jan: 1,
  januar: 1,
  jänner: 1,
  february: 2,
  feb: 2,
  februar: 2,
  march: 3,
  mar: 3,
  märz: 3,
  maerz: 3,
  mär: 3,
  mrz: 3,
  april: 4,
  apr: 4,
  may: 5,
  mai: 5,
  june: 6,
  jun: 6,
  juni: 6,
  july: 7,
  jul: 7,
  juli: 7,
  august: 8,
  aug: 8,
  september: 9,
  sep: 9,
  sept: 9,
  october: 10,
  oct: 10,
  oktober: 10,
  okt: 10,
  november: 11,
  nov: 11,
  december: 12,
  dec: 12,
  dezember: 12,
  dez: 12,
};

// Anchored at the start of a short string (callers pass at most MAX_DATE_TEXT characters); no
// nested quantifiers, so no backtracking blow-up.
const MAX_DATE_TEXT = 40;
const ISO = /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\p{L}\p{N}])/u;
const NUMERIC = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4})(?![\p{L}\p{N}])/u;
const DAY_MONTH_YEAR =
  /^(\d{1,2})(?:st|nd|rd|th)?\.?[ -]?(?:of )?(\p{L}{3,9})\.?,?[ -](\d{4})(?![\p{L}\p{N}])/u;
const MONTH_DAY_YEAR = /^(\p{L}{3,9})\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})(?![\p{L}\p{N}])/u;

/** Years a date of birth may have: a living person's, written with four digits. */
const MIN_YEAR = 1900;
const MAX_YEAR = 2099;

/**
 * The date written at the start of `text`, as ISO `YYYY-MM-DD`, or null. Formats:
 * `1984-03-15` (also with / or .), `15.03.1984` (dots: always day first, the German and
 * continental convention), `15/03/1984` and `15-03-1984`, `15 March 1984`, `15. März 1984`,
 * `15-Mar-1984`, `March 15, 1984`.
 *
 * Slash and dash dates: day first when the first number is > 12; month first (US) when only the
 * second is > 12; when both are ≤ 12 the date is ambiguous and read day first (most of the
 * world's convention, and the documents this targets are European first), flagged `ambiguous` so
 * its candidate gets a lower confidence and the reviewer checks it, unless the form states the
 * order (`order`, from a label hint such as "(DD/MM/YYYY)" or "(MM/DD/YYYY)"). Two-digit years are refused
 * (which century?). The date must exist (no 31 April, 29 February only in leap years).
 */
export function parseDateAt(text: string, order?: DateOrder): ParsedDate | null {
  const head = text.slice(0, MAX_DATE_TEXT);
  let match = ISO.exec(head);
  if (match !== null) return build(match[1], match[3], match[4], match[0].length, false);
  match = NUMERIC.exec(head);
  if (match !== null) {
    const [, first = '', separator, second = '', year = ''] = match;
    const a = Number(first);
    const b = Number(second);
    if (separator === '.' || a > 12) return build(year, second, first, match[0].length, false);
    if (b > 12) return build(year, first, second, match[0].length, false);
    if (order === 'mdy') return build(year, first, second, match[0].length, false);
    return build(year, second, first, match[0].length, order !== 'dmy');
  }
  match = DAY_MONTH_YEAR.exec(head);
  if (match !== null) {
    const month = MONTHS[(match[2] ?? '').toLowerCase()];
    if (month !== undefined) return build(match[3], String(month), match[1], match[0].length, false);
  }
  match = MONTH_DAY_YEAR.exec(head);
  if (match !== null) {
    const month = MONTHS[(match[1] ?? '').toLowerCase()];
    if (month !== undefined) return build(match[3], String(month), match[2], match[0].length, false);
  }
  return null;
}

function build(
  yearText: string | undefined,
  monthText: string | undefined,
  dayText: string | undefined,
  length: number,
  ambiguous: boolean,
): ParsedDate | null {
  const year = Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  if (!Number.isInteger(year) || year < MIN_YEAR || year > MAX_YEAR) return null;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return { iso, length, ambiguous };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
