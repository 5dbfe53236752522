import { digitRunEnd, isAsciiDigit, type Span, wordCharAt, wordCharBefore } from './text-scan';

const MIN_CARD_DIGITS = 13;
const MAX_CARD_DIGITS = 19;
// Character codes: "+", and the two separators allowed between groups, " " and "-".
const PLUS = 43;
const SPACE = 32;
const DASH = 45;

/**
 * Issuer prefixes (IIN ranges) we accept, with the lengths each network issues. A number is a card
 * when one of these matches its first digits and its length (and Luhn passes):
 *
 * | network          | prefixes              | digits  |
 * |------------------|-----------------------|---------|
 * | Visa             | 4                     | 13, 16, 19 |
 * | Mastercard       | 51-55, 2221-2720      | 16      |
 * | American Express | 34, 37                | 15      |
 * | Discover         | 6011, 65, 644-649     | 16-19   |
 * | JCB              | 3528-3589             | 16-19   |
 * | Diners Club      | 300-305, 36, 38       | 14-19   |
 * | UnionPay         | 62                    | 16-19   |
 * | Maestro          | 50, 56-69             | 13-19 (12 exists; below our 13-digit floor) |
 */
interface IinRange {
  network: string;
  /** Inclusive bounds on the first `digits` digits. */
  from: number;
  to: number;
  digits: number;
  lengths: readonly number[];
}

const range = (min: number, max: number): number[] =>
  Array.from({ length: max - min + 1 }, (_, i) => min + i);

const IIN_RANGES: readonly IinRange[] = [
  { network: 'visa', from: 4, to: 4, digits: 1, lengths: [13, 16, 19] },
  { network: 'mastercard', from: 51, to: 55, digits: 2, lengths: [16] },
  { network: 'mastercard', from: 2221, to: 2720, digits: 4, lengths: [16] },
  { network: 'amex', from: 34, to: 34, digits: 2, lengths: [15] },
  { network: 'amex', from: 37, to: 37, digits: 2, lengths: [15] },
  { network: 'discover', from: 6011, to: 6011, digits: 4, lengths: range(16, 19) },
  { network: 'discover', from: 65, to: 65, digits: 2, lengths: range(16, 19) },
  { network: 'discover', from: 644, to: 649, digits: 3, lengths: range(16, 19) },
  { network: 'jcb', from: 3528, to: 3589, digits: 4, lengths: range(16, 19) },
  { network: 'diners', from: 300, to: 305, digits: 3, lengths: range(14, 19) },
  { network: 'diners', from: 36, to: 36, digits: 2, lengths: range(14, 19) },
  { network: 'diners', from: 38, to: 38, digits: 2, lengths: range(14, 19) },
  { network: 'unionpay', from: 62, to: 62, digits: 2, lengths: range(16, 19) },
  { network: 'maestro', from: 50, to: 50, digits: 2, lengths: range(13, 19) },
  { network: 'maestro', from: 56, to: 69, digits: 2, lengths: range(13, 19) },
];

/** The network whose IIN range and length match `digits` (a string of 13-19 digits), or null. */
export function cardNetwork(digits: string): string | null {
  for (const iin of IIN_RANGES) {
    const prefix = Number(digits.slice(0, iin.digits));
    if (prefix >= iin.from && prefix <= iin.to && iin.lengths.includes(digits.length)) return iin.network;
  }
  return null;
}

/**
 * Luhn (ISO/IEC 7812-1): doubling every second digit from the right, the sum is a multiple of 10.
 * `digits` must be ASCII digits only (no spaces); anything else, or an empty string, is not valid.
 */
export function luhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let value = digits.charCodeAt(index) - 48;
    if (double) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
    double = !double;
  }
  return sum % 10 === 0;
}

interface Group {
  start: number;
  end: number;
}

/**
 * Payment card numbers: 13 to 19 digits, written compact or in groups separated by one space or
 * one dash (the same separator throughout), grouped the way cards are printed: all in fours (the
 * last group shorter), 4-6-5 (Amex) or 4-6-4 (Diners). The number must pass Luhn and match an IIN
 * range and its length (cardNetwork). Within a longer run of digit groups ("order 12 4111 1111
 * 1111 1111"), the longest card starting at the leftmost possible group wins.
 *
 * Linear: runs are read once; for each group at most the next 19 digits are tried.
 */
export function findCards(text: string): Span[] {
  const spans: Span[] = [];
  let index = 0;
  while (index < text.length) {
    if (!isAsciiDigit(text.charCodeAt(index))) {
      index += 1;
      continue;
    }
    const groups = readGroups(text, index);
    const last = groups[groups.length - 1];
    spans.push(...cardsInRun(text, groups));
    index = last === undefined ? index + 1 : last.end;
  }
  return spans;
}

/** Digit groups from `start`, joined by one space or dash each. */
function readGroups(text: string, start: number): Group[] {
  const groups: Group[] = [];
  let from = start;
  for (;;) {
    const end = digitRunEnd(text, from);
    groups.push({ start: from, end });
    const separator = text.charCodeAt(end);
    if ((separator !== SPACE && separator !== DASH) || !isAsciiDigit(text.charCodeAt(end + 1))) return groups;
    from = end + 1;
  }
}

function cardsInRun(text: string, groups: readonly Group[]): Span[] {
  const spans: Span[] = [];
  let first = 0;
  while (first < groups.length) {
    const card = longestCardFrom(text, groups, first);
    if (card === null) {
      first += 1;
      continue;
    }
    spans.push(card.span);
    first = card.next;
  }
  return spans;
}

function longestCardFrom(
  text: string,
  groups: readonly Group[],
  first: number,
): { span: Span; next: number } | null {
  const start = groups[first];
  // A card does not start inside a word, nor after "+" (that is an international phone number).
  if (start === undefined || wordCharBefore(text, start.start) || text.charCodeAt(start.start - 1) === PLUS) {
    return null;
  }
  // Grouped cards start with a group of four (isCardShaped); a compact one is a single group.
  const firstSize = start.end - start.start;
  if (firstSize !== 4 && (firstSize < MIN_CARD_DIGITS || firstSize > MAX_CARD_DIGITS)) return null;
  // Windows first..last of 13 to 19 digits, longest first.
  const sizes: number[] = [];
  let digits = 0;
  for (let last = first; last < groups.length; last += 1) {
    const group = groups[last];
    if (group === undefined) break;
    digits += group.end - group.start;
    if (digits > MAX_CARD_DIGITS) break;
    sizes.push(group.end - group.start);
  }
  for (let count = sizes.length; count >= 1; count -= 1) {
    const window = sizes.slice(0, count);
    if (window.reduce((sum, size) => sum + size, 0) < MIN_CARD_DIGITS) break;
    const last = groups[first + count - 1];
    if (last === undefined || wordCharAt(text, last.end) || !isCardShaped(text, groups, first, window))
      continue;
    const number = text.slice(start.start, last.end).replace(/[ -]/g, '');
    if (luhnValid(number) && cardNetwork(number) !== null) {
      return { span: { start: start.start, end: last.end }, next: first + count };
    }
  }
  return null;
}

/** Compact, or grouped as printed (4-4-4-…-tail, 4-6-5, 4-6-4) with one kind of separator. */
function isCardShaped(
  text: string,
  groups: readonly Group[],
  first: number,
  sizes: readonly number[],
): boolean {
  if (sizes.length === 1) return true;
  const separator = text.charCodeAt(groups[first]?.end ?? 0);
  for (let position = 1; position < sizes.length; position += 1) {
    if (text.charCodeAt((groups[first + position]?.start ?? 0) - 1) !== separator) return false;
  }
  const shape = sizes.join('-');
  if (shape === '4-6-5' || shape === '4-6-4') return true;
  return sizes.every((size, position) => (position === sizes.length - 1 ? size <= 4 : size === 4));
}
