import { fail, type NormalizeResult, ok } from './types';

/**
 * The checks every type starts with: a string, well-formed Unicode, no control or bidirectional
 * override characters, trimmed, not empty, NFC, at most `maxLength` code points.
 */
export interface TextRules {
  maxLength: number;
  /** free_text keeps line breaks and tabs (CRLF → LF); every other type is one line. */
  multiline?: boolean;
}

// ASCII/Latin-1 control characters (C0, DEL, C1). Line breaks and tabs are among them.
const CONTROL = /\p{Cc}/u;
const CONTROL_EXCEPT_LINES = /[^\P{Cc}\n\t]/u;
// Unicode line/paragraph separators: line breaks that are not control characters.
const UNICODE_LINE_BREAK = /[\u2028\u2029]/;
// An unpaired UTF-16 surrogate (a `u` regex sees it as a lone code point of category Cs).
const LONE_SURROGATE = /\p{Cs}/u;
// Explicit bidirectional embeddings, overrides and isolates: they make a value display as something
// else than it is ("Trojan Source", CVE-2021-42574) and no name or address needs them (LRM/RLM stay allowed).
const BIDI_OVERRIDE = /[\u202A-\u202E\u2066-\u2069]/;

export const RULE_EMPTY = 'must not be empty';
export const RULE_CONTROL = 'must not contain control characters';
export const RULE_SINGLE_LINE = 'must be a single line without control characters (no line breaks or tabs)';

export function ruleTooLong(maxLength: number): string {
  return `must be at most ${maxLength} characters`;
}

/** Unicode code points, not UTF-16 units: "東京" is 2, an emoji is 1. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

export function cleanText(raw: string, rules: TextRules): NormalizeResult {
  if (typeof raw !== 'string') return fail('must be a string');
  if (LONE_SURROGATE.test(raw)) return fail('must be valid Unicode text (no unpaired surrogates)');
  let text = raw.trim();
  if (rules.multiline) {
    if (CONTROL_EXCEPT_LINES.test(text.replace(/\r\n?/g, '\n'))) return fail(RULE_CONTROL);
    text = text.replace(/\r\n?|[\u2028\u2029]/g, '\n');
  } else if (CONTROL.test(text) || UNICODE_LINE_BREAK.test(text)) {
    return fail(RULE_SINGLE_LINE);
  }
  if (BIDI_OVERRIDE.test(text)) return fail('must not contain bidirectional override characters');
  // One spelling per value: "é" typed as e + combining accent and as one character compare equal.
  text = text.normalize('NFC');
  if (text.length === 0) return fail(RULE_EMPTY);
  if (codePointLength(text) > rules.maxLength) return fail(ruleTooLong(rules.maxLength));
  return ok(text);
}

/** Runs of whitespace (tabs excluded by cleanText, NBSP included) become one space. */
export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/**
 * Upper case of a printable-ASCII text, or null for any other character: `toUpperCase` would turn
 * "ß" into "SS" and "ı" into "I", making a refused character an accepted one.
 */
export function upperAscii(text: string): string | null {
  return /^[\x20-\x7e]*$/.test(text) ? text.toUpperCase() : null;
}

/** cleanText for one-line values, whitespace runs collapsed. */
export function cleanLine(raw: string, maxLength: number): NormalizeResult {
  const cleaned = cleanText(raw, { maxLength });
  return cleaned.ok ? ok(collapseSpaces(cleaned.value)) : cleaned;
}
