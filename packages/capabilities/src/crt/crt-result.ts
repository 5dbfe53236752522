import { type CrtInput, type CrtObservation, CrtResult } from '@svc/contracts';
import type { HostnameEntry } from './hostname-collector';

/** Spec §1.7 / §2.6: what observations do and do not prove (CrtResult.disclosure). */
export const CRT_DISCLOSURE =
  'Certificate-transparency observations list hostnames that appeared in publicly logged TLS certificates. They do not prove that a host exists in DNS, is live, or is reachable, and they may include retired names.';

/** Every hostname one provider gave for an apex, before the limit (what the cache holds). */
export interface HostnameSet {
  provider: string;
  /** Sorted by hostname, distinct. */
  entries: readonly HostnameEntry[];
  /** The provider's answer was cut (size or page cap): more hostnames may exist. */
  truncated: boolean;
}

/**
 * The CrtResult of a run (spec §2.6): the first `limit` hostnames in hostname order, `first_seen`
 * (RFC 3339 UTC) only when asked for and known, `count` = observations returned. Validated with the
 * contract schema: a result that does not match is a bug and throws (the run fails as internal).
 */
export function buildCrtResult(request: CrtInput, set: HostnameSet): CrtResult {
  const observations: CrtObservation[] = set.entries
    .slice(0, request.limit)
    .map(([hostname, firstSeenMs]) =>
      request.include_first_seen && firstSeenMs !== null
        ? { hostname, first_seen: new Date(firstSeenMs).toISOString() }
        : { hostname },
    );
  return CrtResult.parse({
    status: 'completed',
    summary: summarise(request, set, observations.length),
    apex: request.apex,
    count: observations.length,
    limit: request.limit,
    include_first_seen: request.include_first_seen,
    observations,
    provider: set.provider,
    live_hosts_verified: false,
    disclosure: CRT_DISCLOSURE,
  });
}

/**
 * e.g. `Found 1234 distinct hostnames for example.com in certificate-transparency logs (crt.sh);
 * returning 100 (limit 100).`, plus a note when the provider's answer was cut.
 */
function summarise(request: CrtInput, set: HostnameSet, returned: number): string {
  const found = set.entries.length;
  const noun = found === 1 ? 'hostname' : 'hostnames';
  const text = `Found ${found} distinct ${noun} for ${request.apex} in certificate-transparency logs (${set.provider}); returning ${returned} (limit ${request.limit}).`;
  return set.truncated
    ? `${text} The provider's answer was truncated (response size or page limit), so more hostnames may exist.`
    : text;
}
