import { digitRunEnd, isAsciiDigit, type Span, wordCharAt, wordCharBefore } from './text-scan';

// Character codes: "+", "(", ")".
const PLUS = 43;
const OPEN = 40;
const CLOSE = 41;
/** Separators between two digit groups. */
const SEPARATORS = ' .-';

/** E.164: at most 15 digits; a number written with + has at least 8 here, a national one at least 7. */
const MAX_DIGITS = 15;
const MIN_INTERNATIONAL_DIGITS = 8;
const MIN_NATIONAL_DIGITS = 7;
/** Digits inside parentheses: an area or trunk code such as (0), (020), (555). */
const MAX_PAREN_DIGITS = 5;

interface Group {
  start: number;
  end: number;
  digits: string;
  paren: boolean;
}

interface PhoneRun {
  start: number;
  end: number;
  plus: boolean;
  groups: Group[];
  /** Separator before groups[i + 1]: " ", ".", "-", or "" (next to a parenthesised group). */
  separators: string[];
}

/**
 * Phone numbers. A candidate is a run of digit groups: an optional leading `+`, then groups of
 * digits or `(digits)`, each joined to the next by one space, dot or dash, or by nothing next to a
 * parenthesis ("+44 (0)20 7946 0958", "(555) 123-4567", "020 7946 0958", "+4915112345678").
 * The run is judged as a whole, never cut: digits glued to a longer number by single separators
 * are part of that number. It is a phone number when it does not touch a letter or digit and:
 *
 * - with `+` (E.164): 8 to 15 digits, the first not 0;
 * - without: 7 to 15 digits in at least two groups (a plain digit run is not phone-shaped), and
 *   not one of the shapes numbers take in prose: a date (2026-11-21, 21.11.2026), a year range
 *   or list (2019-2026), an amount grouped in thousands (1 000 000, 12.345.678), a decimal
 *   (123.4567: dots need three groups or more), an IPv4 address, a US ZIP+4 (12345-6789);
 * - a one-digit group only first (second after a `+` country code) or in parentheses
 *   ("1 800 555 0199", "+33 1 23 45 67 89", "+44 (0)20 …").
 *
 * Card numbers and IBANs are claimed before phones (scan-pii.ts), and a card number has 13-19
 * digits in a card's grouping, so most are not phone-shaped anyway.
 *
 * Linear: the scan reads each run once and resumes after it.
 */
export function findPhones(text: string): Span[] {
  const spans: Span[] = [];
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (!isAsciiDigit(code) && code !== PLUS && code !== OPEN) {
      index += 1;
      continue;
    }
    const run = readRun(text, index);
    if (run === null) {
      index += 1;
      continue;
    }
    if (!wordCharBefore(text, run.start) && !wordCharAt(text, run.end) && isPhone(run)) {
      spans.push({ start: run.start, end: run.end });
    }
    index = run.end;
  }
  return spans;
}

function readGroup(text: string, from: number): Group | null {
  if (text.charCodeAt(from) === OPEN) {
    const digitsEnd = digitRunEnd(text, from + 1);
    const count = digitsEnd - from - 1;
    if (count < 1 || count > MAX_PAREN_DIGITS || text.charCodeAt(digitsEnd) !== CLOSE) return null;
    return { start: from, end: digitsEnd + 1, digits: text.slice(from + 1, digitsEnd), paren: true };
  }
  const end = digitRunEnd(text, from);
  return end === from ? null : { start: from, end, digits: text.slice(from, end), paren: false };
}

function readRun(text: string, start: number): PhoneRun | null {
  const plus = text.charCodeAt(start) === PLUS;
  let group = readGroup(text, plus ? start + 1 : start);
  if (group === null) return null;
  const groups: Group[] = [];
  const separators: string[] = [];
  for (;;) {
    groups.push(group);
    const char = text.charAt(group.end);
    let next: Group | null = null;
    if (char !== '' && SEPARATORS.includes(char)) {
      next = readGroup(text, group.end + 1);
      if (next !== null) separators.push(char);
    }
    if (next === null && (group.paren || char === '(')) {
      next = readGroup(text, group.end);
      if (next !== null) separators.push('');
    }
    if (next === null) break;
    group = next;
  }
  return { start, end: group.end, plus, groups, separators };
}

function isPhone(run: PhoneRun): boolean {
  const digits = run.groups.map((group) => group.digits).join('');
  if (digits.length > MAX_DIGITS) return false;
  // After "+", the country code may be followed by a one-digit area code (+33 1 23 45 67 89).
  const firstFreePosition = run.plus ? 1 : 0;
  const oneDigitElsewhere = run.groups.some(
    (group, position) => position > firstFreePosition && !group.paren && group.digits.length === 1,
  );
  if (oneDigitElsewhere) return false;
  if (run.plus) return digits.length >= MIN_INTERNATIONAL_DIGITS && !digits.startsWith('0');
  if (digits.length < MIN_NATIONAL_DIGITS || run.groups.length < 2) return false;
  if (run.groups.some((group) => group.paren)) return true;
  return !looksLikeOtherNumber(
    run.groups.map((group) => group.digits),
    run.separators,
  );
}

/** Shapes of non-phone numbers in prose (see findPhones); groups have no parentheses here. */
function looksLikeOtherNumber(groups: readonly string[], separators: readonly string[]): boolean {
  const sizes = groups.map((group) => group.length).join('-');
  const separator = separators.every((value) => value === separators[0]) ? separators[0] : undefined;
  const values = groups.map(Number);

  if (separator === '.' && groups.length < 3) return true; // decimal: 123.4567
  if (groups.length === 3 && separator !== undefined && isDate(sizes, values)) return true;
  if (values.every((value, i) => groups[i]?.length === 4 && value >= 1800 && value <= 2199)) return true; // years
  if ((separator === '.' || separator === ' ') && isThousands(groups)) return true;
  if (
    separator === '.' &&
    groups.length === 4 &&
    groups.every((group) => group.length <= 3 && Number(group) <= 255)
  ) {
    return true; // IPv4
  }
  return separator === '-' && sizes === '5-4'; // ZIP+4
}

/** YYYY-MM-DD, or DD-MM-YYYY / MM-DD-YYYY, with a plausible month and day. */
function isDate(sizes: string, [a = 0, b = 0, c = 0]: readonly number[]): boolean {
  const month = (value: number) => value >= 1 && value <= 12;
  const day = (value: number) => value >= 1 && value <= 31;
  if (sizes === '4-2-2') return month(b) && day(c);
  if (sizes === '2-2-4') return (day(a) && month(b)) || (month(a) && day(b));
  return false;
}

/** 1 000 000, 12.345.678: a first group of 1-3 digits, then groups of exactly 3. */
function isThousands(groups: readonly string[]): boolean {
  const [first = '', ...rest] = groups;
  return first.length <= 3 && rest.length > 0 && rest.every((group) => group.length === 3);
}
