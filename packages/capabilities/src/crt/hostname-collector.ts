/**
 * Turns the name fields of certificate-transparency entries into the distinct hostnames of one apex,
 * each with the earliest time it was seen (issue 3 "Observations"):
 * split on newlines, trim, lowercase, strip one leading `*.`, drop e-mail addresses and anything
 * that is not an RFC 1123 hostname, keep the apex itself and names under it, de-duplicate.
 */

/**
 * RFC 1123 host name: dot-separated labels of 1–63 letters, digits or hyphens, no label starting or
 * ending with a hyphen, 253 characters at most, no trailing dot. The same shape as `Hostname` in
 * @svc/contracts (checked there with zod); a plain regex here because a large crt.sh answer holds
 * millions of names.
 */
const HOSTNAME_PATTERN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * One name as it appears in a certificate → the hostname it stands for, or undefined when it is not
 * a hostname (an e-mail address, a name with `_` or spaces, a trailing dot) or not `apex` or a name
 * under it (IP addresses are never under a registrable domain). `apex` must already be lowercase.
 */
export function normaliseName(raw: string, apex: string): string | undefined {
  let name = raw.trim().toLowerCase();
  if (name.startsWith('*.')) name = name.slice(2);
  // e-mail SANs (rfc822Name) and `user@host` subjects are not hostnames.
  if (name === '' || name.includes('@')) return undefined;
  if (!HOSTNAME_PATTERN.test(name)) return undefined;
  // `.endsWith('.' + apex)`, not `.endsWith(apex)`: `notexample.com` is not under `example.com`.
  if (name !== apex && !name.endsWith(`.${apex}`)) return undefined;
  return name;
}

/** A hostname with the earliest time it was seen (epoch ms), or null when no entry had a time. */
export type HostnameEntry = readonly [hostname: string, firstSeenMs: number | null];

/** Collects the distinct hostnames of one apex from any number of name fields. */
export class HostnameCollector {
  readonly apex: string;
  private readonly earliest = new Map<string, number | null>();

  constructor(apex: string) {
    this.apex = apex.toLowerCase();
  }

  /** Distinct hostnames so far. */
  get size(): number {
    return this.earliest.size;
  }

  /**
   * Adds every name of `field` (one name, or several separated by newlines as in crt.sh's
   * `name_value`) seen at `seenAtMs` (epoch ms; undefined when the entry has no usable time).
   * Adding the same entry twice changes nothing, so a retried request may re-add what it read.
   */
  addNames(field: string, seenAtMs: number | undefined): void {
    for (const raw of field.split('\n')) {
      const hostname = normaliseName(raw, this.apex);
      if (hostname !== undefined) this.addHostname(hostname, seenAtMs);
    }
  }

  private addHostname(hostname: string, seenAtMs: number | undefined): void {
    const known = this.earliest.get(hostname);
    if (known === undefined) {
      this.earliest.set(hostname, seenAtMs ?? null);
    } else if (seenAtMs !== undefined && (known === null || seenAtMs < known)) {
      this.earliest.set(hostname, seenAtMs);
    }
  }

  /** Every hostname with its earliest time, sorted by hostname (code-unit order: all ASCII lowercase). */
  sortedEntries(): HostnameEntry[] {
    return [...this.earliest.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
