import type { CapabilityRecord } from '@svc/contracts';

/** `registry.describe` of one slug; rejects with NotFoundError (404) for an unknown slug, 503 when down. */
export type DescribeCapability = (slug: string) => Promise<CapabilityRecord>;

/** Capability records as sessions and file checks need them, briefly cached. */
export interface CapabilityDirectory {
  describe: DescribeCapability;
  /** Forgets every cached record (on `catalog.changed`). */
  clear(): void;
}

/** Records kept at most: the catalog is small; this only bounds memory if it is not. */
const MAX_ENTRIES = 1_000;

/**
 * A TTL cache with single flight in front of `registry.describe` (as the orchestrator's: a burst of
 * sessions costs one RPC per slug per `ttlMs`). Errors are never cached. `clear()` bumps a
 * generation so an answer fetched before the catalog changed is not kept.
 */
export function createCapabilityDirectory(
  fetch: DescribeCapability,
  ttlMs: number,
  now: () => number = Date.now,
): CapabilityDirectory {
  const cache = new Map<string, { record: CapabilityRecord; expiresAt: number }>();
  const inFlight = new Map<string, Promise<CapabilityRecord>>();
  let generation = 0;

  const load = (slug: string): Promise<CapabilityRecord> => {
    const startedIn = generation;
    const pending = fetch(slug)
      .then((record) => {
        if (ttlMs > 0 && startedIn === generation) {
          if (cache.size >= MAX_ENTRIES) cache.clear();
          cache.set(slug, { record, expiresAt: now() + ttlMs });
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
      if (hit !== undefined && hit.expiresAt > now()) return Promise.resolve(hit.record);
      if (hit !== undefined) cache.delete(slug);
      return inFlight.get(slug) ?? load(slug);
    },
    clear() {
      generation += 1;
      cache.clear();
      inFlight.clear();
    },
  };
}
