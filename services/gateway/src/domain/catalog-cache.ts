import { SingleFlightCache } from '@svc/service-kit';

/**
 * The gateway's read-through cache of the registry's answers (search and describe).
 *
 * - fresh for `ttlMs` (CATALOG_CACHE_TTL_MS, default 30,000 ms), then reloaded on the next request;
 * - emptied on the `catalog.changed` event, so a catalog change is visible at once on every replica;
 * - "unknown capability" answers are remembered for `negativeTtlMs` (shorter: a new slug should not
 *   stay invisible long even if an event were lost);
 * - a registry outage is not cached: the miss fails (503 from the RPC client's timeout) and the next
 *   request tries again.
 */

/** The search parameters that select a result; anything else must not reach the cache key. */
export interface CatalogQuery {
  readonly q?: string | undefined;
  readonly category?: string | undefined;
  readonly limit: number;
}

/** The registry's RPC, in the shape of its typed client (main.ts passes the client as is). */
export interface CatalogLoaders<TSearch, TDescribe> {
  search(query: CatalogQuery): Promise<TSearch>;
  describe(request: { readonly slug: string }): Promise<TDescribe>;
}

export interface CatalogCacheOptions {
  /** ms a search/describe answer stays fresh. */
  readonly ttlMs: number;
  /** ms an "unknown slug" answer is remembered; default min(ttlMs, 5,000). */
  readonly negativeTtlMs?: number;
  /** Entries per kind (search, describe); default 1,000. */
  readonly maxEntries?: number;
  /** Which describe failures mean "no such capability" (and may be remembered). */
  readonly isNotFound: (error: unknown) => boolean;
  readonly now?: () => number;
}

const DEFAULT_MAX_ENTRIES = 1_000;
const DEFAULT_NEGATIVE_TTL_MS = 5_000;

/**
 * The search as sent to the registry and as keyed here: its full-text match ignores case and extra
 * whitespace (to_tsvector lowercases and splits on spaces), so "Certificate  Transparency" and
 * "certificate transparency" share one entry and one RPC.
 */
export function normaliseQuery(query: CatalogQuery): CatalogQuery {
  const q = (query.q ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
  const category = (query.category ?? '').trim();
  return { limit: query.limit, ...(q ? { q } : {}), ...(category ? { category } : {}) };
}

/** The cache key of a search: its normalised parameters, in a fixed order. */
export function searchCacheKey(query: CatalogQuery): string {
  const normalised = normaliseQuery(query);
  return JSON.stringify([normalised.q ?? '', normalised.category ?? '', normalised.limit]);
}

export class CatalogCache<TSearch, TDescribe> {
  readonly ttlMs: number;
  private readonly searches: SingleFlightCache<TSearch>;
  private readonly descriptions: SingleFlightCache<TDescribe>;

  constructor(
    private readonly loaders: CatalogLoaders<TSearch, TDescribe>,
    options: CatalogCacheOptions,
  ) {
    this.ttlMs = options.ttlMs;
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    const negativeTtlMs = options.negativeTtlMs ?? Math.min(options.ttlMs, DEFAULT_NEGATIVE_TTL_MS);
    if (negativeTtlMs > options.ttlMs) throw new RangeError('negativeTtlMs must not exceed ttlMs');
    const common = { ttlMs: options.ttlMs, maxEntries, ...(options.now ? { now: options.now } : {}) };
    this.searches = new SingleFlightCache<TSearch>(common);
    this.descriptions = new SingleFlightCache<TDescribe>({
      ...common,
      negativeTtlMs: (error) => (options.isNotFound(error) ? negativeTtlMs : undefined),
    });
  }

  search(query: CatalogQuery): Promise<TSearch> {
    // Normalise what is sent as well as the key, so one entry never holds two different answers.
    const normalised = normaliseQuery(query);
    return this.searches.get(searchCacheKey(normalised), () => this.loaders.search(normalised));
  }

  describe(slug: string): Promise<TDescribe> {
    return this.descriptions.get(slug, () => this.loaders.describe({ slug }));
  }

  /** Drops everything (the `catalog.changed` handler). */
  clear(): void {
    this.searches.clear();
    this.descriptions.clear();
  }

  /** Stored entries, both kinds together (for tests and metrics). */
  get size(): number {
    return this.searches.size + this.descriptions.size;
  }

  /** Seconds for `Cache-Control: max-age`: never promise clients more than the gateway keeps. */
  get maxAgeSeconds(): number {
    return Math.floor(this.ttlMs / 1000);
  }
}
