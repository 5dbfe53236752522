import { ibanLength } from './iban-lengths';
import {
  isAsciiAlphanumeric,
  isAsciiDigit,
  isAsciiLetter,
  type Span,
  wordCharAt,
  wordCharBefore,
} from './text-scan';

/** Spec of the shape: 2 letters, 2 check digits, 11 to 30 alphanumerics (15 to 34 in all). */
const MIN_IBAN_LENGTH = 15;
const MAX_IBAN_LENGTH = 34;
/** Paper format: groups of 4 separated by one space, the last group 1 to 4 characters. */
const GROUP_LENGTH = 4;

export interface IbanScan {
  /** IBANs: right shape, the country's registered length and ISO 13616 mod-97 = 1. */
  valid: Span[];
  /**
   * IBAN-shaped text that is not a valid IBAN (wrong check digits, unknown country, wrong length).
   * Not redacted as IBAN, but no card or phone number is taken out of it either: its digit groups
   * are part of an account number, and a half-redacted one would be worse than none.
   */
  invalid: Span[];
}

/**
 * IBANs, compact (`DE89370400440532013000`) or in groups of four (`DE89 3704 0044 0532 0130 00`),
 * letters in either case. Starts where two letters and two digits begin a word; linear, since
 * each candidate reads at most 34 alphanumerics plus its spaces and the scan resumes after it.
 */
export function scanIbans(text: string): IbanScan {
  const scan: IbanScan = { valid: [], invalid: [] };
  let index = 0;
  while (index + 4 <= text.length) {
    if (!startsCandidate(text, index)) {
      index += 1;
      continue;
    }
    const candidate = readCandidate(text, index);
    if (candidate === null) {
      index += 4;
      continue;
    }
    (ibanValid(candidate.chars) ? scan.valid : scan.invalid).push({ start: index, end: candidate.end });
    index = candidate.end;
  }
  return scan;
}

function startsCandidate(text: string, index: number): boolean {
  return (
    isAsciiLetter(text.charCodeAt(index)) &&
    isAsciiLetter(text.charCodeAt(index + 1)) &&
    isAsciiDigit(text.charCodeAt(index + 2)) &&
    isAsciiDigit(text.charCodeAt(index + 3)) &&
    !wordCharBefore(text, index)
  );
}

interface Candidate {
  /** The IBAN's characters, uppercase, without spaces. */
  chars: string;
  end: number;
}

/**
 * The IBAN-shaped text at `start`: a compact alphanumeric word, or groups of four separated by
 * single spaces. A grouped candidate longer than its country's IBAN is cut at that length when the
 * cut falls between groups (an IBAN followed by another number). Null when the shape is wrong.
 */
function readCandidate(text: string, start: number): Candidate | null {
  const first = alnumEnd(text, start, MAX_IBAN_LENGTH + 1);
  if (first - start > GROUP_LENGTH) {
    // Compact: one word of 15 to 34 characters.
    const length = first - start;
    if (length < MIN_IBAN_LENGTH || length > MAX_IBAN_LENGTH || wordCharAt(text, first)) return null;
    return { chars: text.slice(start, first).toUpperCase(), end: first };
  }
  if (first - start !== GROUP_LENGTH) return null;

  const expected = ibanLength(text.slice(start, start + 2).toUpperCase());
  let chars = text.slice(start, first);
  let end = first;
  // Each further group: one space, then 1 to 4 alphanumerics; a short group ends the IBAN.
  while (chars.length < MAX_IBAN_LENGTH && text.charCodeAt(end) === 32) {
    const groupEnd = alnumEnd(text, end + 1, GROUP_LENGTH + 1);
    const length = groupEnd - end - 1;
    if (length < 1 || length > GROUP_LENGTH) break;
    chars += text.slice(end + 1, groupEnd);
    end = groupEnd;
    if (chars.length === expected || length < GROUP_LENGTH) break;
  }
  if (chars.length < MIN_IBAN_LENGTH || chars.length > MAX_IBAN_LENGTH || wordCharAt(text, end)) return null;
  return { chars: chars.toUpperCase(), end };
}

/** End of the ASCII alphanumeric run at `from`, reading at most `limit` characters. */
function alnumEnd(text: string, from: number, limit: number): number {
  let end = from;
  while (end < text.length && end - from < limit && isAsciiAlphanumeric(text.charCodeAt(end))) end += 1;
  return end;
}

/**
 * Whether `chars` is a valid IBAN: compact (no spaces), upper case. ISO 13616: the country's
 * registered length, and mod 97 of the number made by moving the first
 * four characters to the end and writing each letter as two digits (A = 10 … Z = 35) equals 1.
 * Computed digit by digit, so no big integers are needed.
 */
export function ibanValid(chars: string): boolean {
  if (ibanLength(chars.slice(0, 2)) !== chars.length) return false;
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(chars)) return false;
  const rearranged = chars.slice(4) + chars.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    const value = isAsciiDigit(code) ? code - 48 : code - 55; // "A" (65) → 10
    remainder = (remainder * (value < 10 ? 10 : 100) + value) % 97;
  }
  return remainder === 1;
}
