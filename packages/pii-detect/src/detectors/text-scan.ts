/**
 * Small character tests shared by the PII scanners. Every scanner works on UTF-16 indexes of the
 * input (what String indexing gives); callers convert them to code points (codePointOffsets).
 */

/** A half-open range [start, end) of UTF-16 indexes. */
export interface Span {
  start: number;
  end: number;
}

const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;

export function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

export function isAsciiAlphanumeric(code: number): boolean {
  return isAsciiDigit(code) || isAsciiLetter(code);
}

/**
 * Whether the character that ends just before `index` is part of a word (any Unicode letter or
 * number, or `_`): a finding must not start in the middle of one ("A12 345 6789", "é555-1234").
 */
export function wordCharBefore(text: string, index: number): boolean {
  if (index <= 0) return false;
  const code = text.charCodeAt(index - 1);
  // A low surrogate ends a pair: read the whole code point (letters outside the BMP exist).
  const start = code >= 0xdc00 && code <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return isWordCodePoint(text.codePointAt(start));
}

/** Whether the character that starts at `index` is part of a word (see wordCharBefore). */
export function wordCharAt(text: string, index: number): boolean {
  if (index >= text.length) return false;
  return isWordCodePoint(text.codePointAt(index));
}

function isWordCodePoint(codePoint: number | undefined): boolean {
  if (codePoint === undefined) return false;
  if (codePoint < 0x80) return isAsciiAlphanumeric(codePoint) || codePoint === 95; // 95: "_"
  return LETTER_OR_NUMBER.test(String.fromCodePoint(codePoint));
}

/** Index just after the run of ASCII digits that starts at `index` (index itself when none). */
export function digitRunEnd(text: string, index: number): number {
  let end = index;
  while (end < text.length && isAsciiDigit(text.charCodeAt(end))) end += 1;
  return end;
}
