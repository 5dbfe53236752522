import { codePointOffsets, type DetectedKind, scanPii } from '@svc/pii-detect';
import {
  characterCount,
  type PiiFinding,
  type PiiRedactInput,
  type PiiRedactResult,
  type PiiType,
} from './schema';

/**
 * pii-redact (docs/decisions.md K1): finds e-mail addresses, IBANs, payment card numbers and phone
 * numbers in plain text and replaces them. The scanners live in @svc/pii-detect (shared with the vault's
 * extractors); the rules of each kind are documented beside its scanner:
 *
 * - email (detectors/email.ts): local part of letters, digits and `._%+-`, `@`, two or more domain labels,
 *   a TLD of two or more letters;
 * - iban (detectors/iban.ts, iban-lengths.ts): country letters, two check digits, 11-30 alphanumerics,
 *   compact or in groups of four; valid only with the country's registered length and ISO 13616
 *   mod-97 = 1;
 * - card (detectors/card.ts): 13-19 digits, compact or grouped as printed with spaces or dashes, Luhn, and a
 *   known IIN range with its lengths (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay,
 *   Maestro);
 * - phone (detectors/phone.ts): `+` and 8-15 digits (E.164), or national numbers of 7-15 digits in at least
 *   two groups; dates, year ranges, amounts, decimals, IPv4 addresses and ZIP+4 codes are not phones.
 *
 * Overlaps (scanPii): every kind is detected, whatever `types` asks for, and spans are claimed in the
 * order email > iban > card > phone, so a card number inside which a phone-shaped run hides is a card,
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
  const found = scanPii(text).map(({ kind, span }) => ({ type: PII_TYPE_OF[kind], span }));

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

/** The detector's kind for each type of the capability's wire contract (they happen to be named alike). */
const PII_TYPE_OF: Readonly<Record<DetectedKind, PiiType>> = {
  email: 'email',
  iban: 'iban',
  card: 'card',
  phone: 'phone',
};
