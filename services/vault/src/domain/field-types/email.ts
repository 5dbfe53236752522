import { domainToASCII, domainToUnicode } from 'node:url';
import { firstCharMask } from './mask-helpers';
import { cleanText } from './text';
import { fail, type NormalizeResult, ok } from './types';

/**
 * E-mail addresses: a sane shape, not full RFC 5322 (no quoted local parts, comments or IP-literal
 * domains: none belongs in a profile). The local part is kept as typed (it is case-sensitive by RFC
 * 5321); the domain is lower-cased and may be internationalised (checked through its ASCII form).
 */
export const EMAIL_MAX = 254; // RFC 5321 §4.5.3.1.3: a path is at most 256 octets including "<>"
const LOCAL_MAX = 64; // RFC 5321 §4.5.3.1.1
const SHAPE_RULE = 'must be an e-mail address of the form name@domain.tld';

// RFC 5322 dot-atom: atext runs separated by single dots.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export function normalizeEmail(value: string): NormalizeResult {
  const cleaned = cleanText(value, { maxLength: EMAIL_MAX });
  if (!cleaned.ok) return cleaned;
  const address = cleaned.value;
  const at = address.lastIndexOf('@');
  if (at <= 0 || /\s/.test(address)) return fail(SHAPE_RULE);
  const local = address.slice(0, at);
  if (local.length > LOCAL_MAX) return fail(`must have at most ${LOCAL_MAX} characters before the @`);
  if (!LOCAL_PART.test(local)) return fail(SHAPE_RULE);
  const domain = canonicalDomain(address.slice(at + 1));
  return domain === null ? fail(SHAPE_RULE) : ok(`${local}@${domain}`);
}

/** The lower-case (Unicode) form of a valid domain name of at least two labels, or null. */
function canonicalDomain(domain: string): string | null {
  // WHATWG URL's domain-to-ASCII (UTS #46): lower-cases, maps and punycodes; "" when invalid.
  const ascii = domainToASCII(domain);
  if (ascii === '' || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  if (!TOP_LEVEL.test(labels[labels.length - 1]!)) return null;
  return domainToUnicode(ascii);
}

/** "jane.doe@example.com" → "j***@example.com": the domain is shown (docs/decisions.md VF4). */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  return `${firstCharMask(value.slice(0, at))}${value.slice(at)}`;
}
