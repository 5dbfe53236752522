import type { Bus } from '@svc/bus';
import type { CachePort } from '@svc/capabilities';

/** Redis key of `key` in the cache of capability `slug` (crt: `<prefix>:crt:cache:<apex>`). */
export function capabilityCacheKey(prefix: string, slug: string, key: string): string {
  return `${prefix}:${slug}:cache:${key}`;
}

/**
 * A capability's CachePort over the bus's producer connection (quick GET/SET only): entries are
 * shared by every worker replica and expire on their own (PX). Redis faults reject; the capability
 * decides whether they matter.
 */
export function createCapabilityCache(bus: Pick<Bus, 'redis' | 'prefix'>, slug: string): CachePort {
  return {
    async get(key) {
      const stored = await bus.redis.getBuffer(capabilityCacheKey(bus.prefix, slug, key));
      return stored ?? undefined;
    },
    async set(key, value, ttlMs) {
      await bus.redis.set(capabilityCacheKey(bus.prefix, slug, key), value, 'PX', ttlMs);
    },
  };
}
