import { findCards } from './card';
import { findEmails } from './email';
import { scanIbans } from './iban';
import { findPhones } from './phone';
import {
  characterCount,
  type PiiFinding,
  type PiiRedactInput,
  type PiiRedactResult,
  type PiiType,
} from './schema';
import type { Span } from './text-scan';

/**
 * pii-redact (docs/decisions.md K1): finds e-mail addresses, IBANs, payment card numbers and phone
 * numbers in plain text and replaces them. The rules of each kind are documented beside its scanner:
 *
 * - email (email.ts): local part of letters, digits and `._%+-`, `@`, two or more domain labels,
 *   a TLD of two or more letters;
 * - iban (iban.ts, iban-lengths.ts): country letters, two check digits, 11-30 alphanumerics,
 *   compact or in groups of four; valid only with the country's registered length and ISO 13616
 *   mod-97 = 1;
 * - card (card.ts): 13-19 digits, compact or grouped as printed with spaces or dashes, Luhn, and a
 *   known IIN range with its lengths (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay,
 *   Maestro);
 * - phone (phone.ts): `+` and 8-15 digits (E.164), or national numbers of 7-15 digits in at least
 *   two groups; dates, year ranges, amounts, decimals, IPv4 addresses and ZIP+4 codes are not phones.
 *
 * Overlaps: every kind is detected, whatever `types` asks for, and spans are claimed in the order
 * email > iban > card > phone, so a card number inside which a phone-shaped run hides is a card,
 * never a phone, even when only phones are redacted. Text shaped like an IBAN that fails its check
 * is claimed too (after valid IBANs): it is not redacted, and no card or phone is cut out of it.
 * Then only the requested types are replaced.
 *
 * Offsets are Unicode code points of the input (as `characters` counts them). The original values
 * are never part of the result: a finding carries its kind, offsets and replacement only.
 *
 * Pure, synchronous and linear in the length of the text (no regular expression backtracking: the
 * scanners read each character a bounded number of times).
 */
export function redactPii(input: PiiRedactInput): PiiRedactResult {
  const { text } = input;
  const claimed = new Uint8Array(text.length);
  const found: { type: PiiType; span: Span }[] = [];

  const claim = (spans: readonly Span[], type: PiiType | null) => {
    for (const span of spans) {
      if (claimed.subarray(span.start, span.end).includes(1)) continue;
      claimed.fill(1, span.start, span.end);
      if (type !== null) found.push({ type, span });
    }
  };
  claim(findEmails(text), 'email');
  const ibans = scanIbans(text);
  claim(ibans.valid, 'iban');
  claim(ibans.invalid, null);
  claim(findCards(text), 'card');
  claim(findPhones(text), 'phone');

  const requested = new Set<PiiType>(input.types);
  const redacted = found
    .filter((finding) => requested.has(finding.type))
    .sort((a, b) => a.span.start - b.span.start);

  const toCodePoints = codePointOffsets(text);
  const parts: string[] = [];
  const findings: PiiFinding[] = [];
  const counts: Record<PiiType, number> = { email: 0, phone: 0, iban: 0, card: 0 };
  let copied = 0;
  for (const { type, span } of redacted) {
    const start = toCodePoints(span.start);
    const end = toCodePoints(span.end);
    const replacement = input.style === 'mask' ? '*'.repeat(end - start) : `[${type.toUpperCase()}]`;
    parts.push(text.slice(copied, span.start), replacement);
    copied = span.end;
    findings.push({ type, start, end, replacement });
    counts[type] += 1;
  }
  parts.push(text.slice(copied));

  return { redacted_text: parts.join(''), findings, counts, characters: characterCount(text) };
}

/**
 * Converts increasing UTF-16 indexes of `text` to code-point offsets, walking the text once in all:
 * a surrogate pair (an emoji, a CJK extension character) is one code point, two UTF-16 units.
 */
function codePointOffsets(text: string): (index: number) => number {
  let unit = 0;
  let codePoints = 0;
  return (index) => {
    while (unit < index) {
      const code = text.charCodeAt(unit);
      const pair = code >= 0xd800 && code <= 0xdbff && unit + 1 < text.length;
      const next = pair ? text.charCodeAt(unit + 1) : 0;
      unit += pair && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
      codePoints += 1;
    }
    return codePoints;
  };
}
