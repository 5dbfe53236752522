import { parse } from 'tldts';
import { z } from 'zod';

/**
 * Spec §2.6 CrtInput.apex: an RFC 1123 host name that is its own registrable domain (eTLD+1) under
 * the Public Suffix List, ICANN and PRIVATE sections both (tldts with `allowPrivateDomains`), by the
 * list's own algorithm (publicsuffix.org/list "Formal algorithm"): the longest matching rule wins,
 * an exception rule (`!city.kawasaki.jp`) removes its leftmost label, and when no rule matches the
 * default rule `*` applies, so a top-level domain the list does not name is itself the public
 * suffix: `foo.unknowntld` is registrable, `a.b.unknowntld` has the apex `b.unknowntld`, and
 * `unknowntld` alone is a public suffix. Before the list: ASCII only (IDNs in their xn-- form), not
 * an IP address, RFC 1123 labels, and a top-level label that is not all digits (RFC 3696 §2; such a
 * name reads as an IPv4 address). (docs/decisions.md C2, changed by issue 13: unlisted suffixes
 * were rejected before.)
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

  const tld = labels[labels.length - 1] ?? '';
  if (/^\d+$/.test(tld)) {
    return `the top-level label "${tld}" is all digits; a host name's top-level domain never is (RFC 3696 §2)`;
  }

  const info = parse(value, { allowPrivateDomains: true, extractHostname: false });
  if (info.isIp) return 'must be a domain name, not an IP address';
  if (info.domain === null)
    return `${value} is a public suffix (${suffixSource(info)}); ${suggestion(value)}`;
  if (info.domain !== value) {
    return `${value} is a subdomain; give its registrable domain ${info.domain}`;
  }
  return null;
}

/** Where the list's answer came from: its ICANN or PRIVATE section, or its default rule `*`. */
function suffixSource(info: { isIcann: boolean | null; isPrivate: boolean | null }): string {
  if (info.isPrivate === true) return 'PRIVATE section of the Public Suffix List';
  if (info.isIcann === true) return 'ICANN section of the Public Suffix List';
  return 'by the Public Suffix List\'s default rule "*": a top-level domain the list does not name is a public suffix';
}

function suggestion(value: string): string {
  return `give a registrable domain under it, e.g. example.${value}`;
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
