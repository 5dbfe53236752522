import type { CapabilityRecord } from '@svc/contracts';
import { SingleFlightCache } from './single-flight-cache';

/** `registry.describe` of one slug: the published record; throws NotFoundError (404) for an unknown slug. */
export type FetchCapability = (slug: string) => Promise<CapabilityRecord>;

/**
 * Capability records as the registry's callers need them (the orchestrator for quotes and runs, the
 * uploads service for upload sessions): the registry's describe answer, briefly cached. Moved here
 * from @svc/bus (issue 14): it is a read-through cache of an RPC answer, not transport.
 */
export interface CapabilityDirectory {
  /** The published record of `slug`; rejects like FetchCapability (404 unknown, 503 registry down). */
  describe(slug: string): Promise<CapabilityRecord>;
  /** Forgets every cached record (on `catalog.changed`). Describes in flight are not cached. */
  clear(): void;
}

export interface CapabilityDirectoryOptions {
  fetch: FetchCapability;
  /** ms a record is reused (CAPABILITY_CACHE_TTL_MS); 0 = never cached (concurrent calls still share one fetch). */
  ttlMs: number;
  /** Clock in ms since the epoch; default Date.now. */
  now?: () => number;
}

/** Records kept at most: the catalog is small; this only bounds memory if it is not. */
const MAX_ENTRIES = 1_000;

/**
 * The one TTL single-flight cache (SingleFlightCache) in front of `registry.describe`: concurrent
 * calls for one slug share one RPC, answers are reused for `ttlMs`, errors are never kept, and
 * `clear()` makes an answer fetched before the catalog changed reach its callers but not the cache.
 */
export function createCapabilityDirectory(options: CapabilityDirectoryOptions): CapabilityDirectory {
  const cache = new SingleFlightCache<CapabilityRecord>({
    ttlMs: options.ttlMs,
    maxEntries: MAX_ENTRIES,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return {
    describe: (slug) => cache.get(slug, () => options.fetch(slug)),
    clear: () => cache.clear(),
  };
}
