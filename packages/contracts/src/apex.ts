import { parse } from 'tldts';
import { z } from 'zod';

/**
 * Spec §2.6 CrtInput.apex: an RFC 1123 host name that is its own registrable domain (eTLD+1) under
 * the Public Suffix List, ICANN and PRIVATE sections both (tldts with `allowPrivateDomains`).
 * A suffix that the list does not contain (`example.notatld`, `example.local`) is rejected too:
 * the PSL's implicit `*` rule would make such names registrable, but the spec asks for a domain
 * "under the public-suffix list" and CT logs only hold certificates for real suffixes
 * (docs/decisions.md C2).
 */

const MAX_HOSTNAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
const ASCII_PATTERN = /^[\x00-\x7f]*$/;
const LABEL_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const IPV4_PATTERN = /^\d{1,3}(?:\.\d{1,3}){3}$/;
/**
 * An IPv6 literal, bracketed or not, with an optional zone (`fe80::1%eth0`): hex digits, colons and
 * dots (an embedded IPv4 tail). Anything else with a colon (`https://example.com`,
 * `example.com:443`) is reported as a bad label, not as an IP address.
 */
const IPV6_PATTERN = /^\[?[0-9a-f]*:[0-9a-f:.]*(?:%[0-9a-z._-]+)?\]?$/;

/**
 * Why `value` (already lowercased) cannot be a crt apex, or null when it can. Messages name the
 * rule that failed and, where useful, what to send instead.
 */
export function apexProblem(value: string): string | null {
  if (value === '') return 'must not be empty';
  if (!ASCII_PATTERN.test(value)) {
    return 'must be ASCII: write an internationalised domain in its xn-- (punycode) form';
  }
  if (IPV4_PATTERN.test(value) || IPV6_PATTERN.test(value)) {
    return 'must be a domain name, not an IP address';
  }
  if (value.length > MAX_HOSTNAME_LENGTH) return `must be at most ${MAX_HOSTNAME_LENGTH} characters`;
  if (value.endsWith('.')) return 'must not end with a dot';
  const labels = value.split('.');
  if (labels.some((label) => label === '')) return 'must not contain an empty label (leading or doubled dot)';
  const long = labels.find((label) => label.length > MAX_LABEL_LENGTH);
  if (long !== undefined) {
    return `label ${JSON.stringify(`${long.slice(0, 20)}…`)} is longer than ${MAX_LABEL_LENGTH} characters`;
  }
  const bad = labels.find((label) => !LABEL_PATTERN.test(label));
  if (bad !== undefined) {
    // JSON.stringify: a label may hold a newline or control character; the message stays one line.
    return `label ${JSON.stringify(bad)} is not an RFC 1123 hostname label (letters, digits and inner hyphens only)`;
  }

  const info = parse(value, { allowPrivateDomains: true, extractHostname: false });
  if (info.isIp) return 'must be a domain name, not an IP address';
  const listed = info.isIcann === true || info.isPrivate === true;
  const section = info.isPrivate === true ? 'PRIVATE' : 'ICANN';
  if (info.domain === null) {
    return listed
      ? `${value} is a public suffix (${section} section of the Public Suffix List); give a registrable domain under it, e.g. example.${value}`
      : `${value} is not a registrable domain under the Public Suffix List`;
  }
  if (!listed) {
    return `${value} is not under a suffix of the Public Suffix List (unknown suffix "${info.publicSuffix ?? ''}")`;
  }
  if (info.domain !== value) {
    return `${value} is a subdomain; give its registrable domain ${info.domain}`;
  }
  return null;
}

/**
 * The crt apex on the wire: a string, lowercased (host names are case-insensitive; observations and
 * stored runs use the lowercase form), then checked by apexProblem(). Published as
 * `{type: string, format: hostname}` in JSON Schema and OpenAPI.
 */
export const Apex = z
  .string()
  // Only ASCII is lowercased: toLowerCase() maps some non-ASCII letters to ASCII (KELVIN SIGN
  // U+212A -> "k"), which would let a non-ASCII apex pass the ASCII rule below.
  .overwrite((value) => (ASCII_PATTERN.test(value) ? value.toLowerCase() : value))
  .check((ctx) => {
    const problem = apexProblem(ctx.value);
    if (problem !== null) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
  })
  .meta({ format: 'hostname', maxLength: MAX_HOSTNAME_LENGTH });
export type Apex = z.infer<typeof Apex>;
