import type { CapabilityRecord } from '@svc/contracts';

/** `registry.describe` of one slug: the published record; throws NotFoundError (404) for an unknown slug. */
export type FetchCapability = (slug: string) => Promise<CapabilityRecord>;

/**
 * Capability records as the registry's callers need them (the orchestrator for quotes and runs, the
 * uploads service for upload sessions): the registry's describe answer, briefly cached.
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
 * A TTL cache with single flight in front of `registry.describe`: concurrent calls for one slug share
 * one RPC, and answers are reused for `ttlMs`. Errors are never cached (an unknown slug or a registry
 * outage is asked again next time). `clear()` bumps a generation, so an answer fetched before the
 * catalog changed is handed to its callers but not kept.
 */
export function createCapabilityDirectory(options: CapabilityDirectoryOptions): CapabilityDirectory {
  const now = options.now ?? Date.now;
  const cache = new Map<string, { record: CapabilityRecord; expiresAt: number }>();
  const inFlight = new Map<string, Promise<CapabilityRecord>>();
  let generation = 0;

  const load = (slug: string): Promise<CapabilityRecord> => {
    const startedIn = generation;
    const pending = options
      .fetch(slug)
      .then((record) => {
        if (options.ttlMs > 0 && startedIn === generation) {
          if (cache.size >= MAX_ENTRIES) {
            const oldest = cache.keys().next().value;
            if (oldest !== undefined) cache.delete(oldest);
          }
          cache.set(slug, { record, expiresAt: now() + options.ttlMs });
        }
        return record;
      })
      .finally(() => {
        if (inFlight.get(slug) === pending) inFlight.delete(slug);
      });
    inFlight.set(slug, pending);
    return pending;
  };

  return {
    describe(slug) {
      const hit = cache.get(slug);
      if (hit !== undefined) {
        if (hit.expiresAt > now()) return Promise.resolve(hit.record);
        cache.delete(slug);
      }
      return inFlight.get(slug) ?? load(slug);
    },
    clear() {
      generation += 1;
      cache.clear();
      // A describe in flight was asked before the change: later callers ask again.
      inFlight.clear();
    },
  };
}
