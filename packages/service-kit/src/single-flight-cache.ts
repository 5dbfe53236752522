/**
 * A bounded, in-memory LRU with a time-to-live and single-flight loading: the one read-through cache
 * of the platform (the gateway's catalog cache, the capability directory in front of
 * `registry.describe`).
 *
 * Why: every read it answers would otherwise be a BullMQ round trip to another service, which caps a
 * read endpoint far below the HTTP ceiling (NOTES.md "BullMQ and Redis": ≈2,400 RPC/s vs ≈9,000 req/s).
 *
 * Rules:
 * - only fresh entries are served (an expired entry is a miss, never "stale while revalidate");
 * - concurrent misses for one key share one load (single flight), also with `ttlMs` 0 (nothing kept);
 * - a failed load is not stored, unless `negativeTtlMs(error)` says how long to remember it
 *   (e.g. "unknown capability" 404s), so every waiter and later caller sees the same answer;
 * - `clear()` drops every entry and bumps a generation: a load that started before the clear still
 *   answers its own waiters but is not stored, so an invalidation can never be undone by a late reply.
 *
 * Not lru-cache: its `clear()` aborts loads in flight (their callers get no answer) and it does not
 * remember failures; both are rules above.
 */

type Outcome<V> = { ok: true; value: V } | { ok: false; error: unknown };

interface Entry<V> {
  readonly outcome: Outcome<V>;
  readonly expiresAt: number; // ms on the injected clock
}

export interface SingleFlightCacheOptions {
  /** How long a loaded value stays fresh, in ms. */
  readonly ttlMs: number;
  /** Upper bound on stored entries; the least recently used one is evicted first. */
  readonly maxEntries: number;
  /** How long to remember a failed load (ms), or 0/undefined to not remember it at all. */
  readonly negativeTtlMs?: (error: unknown) => number | undefined;
  /** Clock in ms; injectable so tests do not sleep. */
  readonly now?: () => number;
}

export class SingleFlightCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inFlight = new Map<string, Promise<V>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly negativeTtlMs: (error: unknown) => number | undefined;
  private readonly now: () => number;
  private generation = 0;

  constructor(options: SingleFlightCacheOptions) {
    if (!Number.isFinite(options.ttlMs) || options.ttlMs < 0) throw new RangeError('ttlMs must be >= 0');
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) {
      throw new RangeError('maxEntries must be a positive integer');
    }
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries;
    this.negativeTtlMs = options.negativeTtlMs ?? (() => undefined);
    this.now = options.now ?? Date.now;
  }

  /** Number of stored entries (fresh or not yet swept). */
  get size(): number {
    return this.entries.size;
  }

  /** The fresh value for `key`, loading it (once, however many callers) on a miss. */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      if (entry.expiresAt > this.now()) {
        // Re-insert to mark it most recently used (Map keeps insertion order).
        this.entries.delete(key);
        this.entries.set(key, entry);
        return entry.outcome.ok ? Promise.resolve(entry.outcome.value) : Promise.reject(entry.outcome.error);
      }
      this.entries.delete(key);
    }
    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending;

    const generation = this.generation;
    const promise = this.runLoad(load).then(
      (value) => {
        this.settle(key, promise, generation, { ok: true, value }, this.ttlMs);
        return value;
      },
      (error: unknown) => {
        this.settle(key, promise, generation, { ok: false, error }, this.negativeTtlMs(error) ?? 0);
        throw error;
      },
    );
    this.inFlight.set(key, promise);
    return promise;
  }

  /** Drops every entry; loads already running are not stored when they finish. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.inFlight.clear();
  }

  /** Calls `load` so that a synchronous throw becomes a rejection like any other failure. */
  private async runLoad(load: () => Promise<V>): Promise<V> {
    return load();
  }

  private settle(
    key: string,
    promise: Promise<V>,
    generation: number,
    outcome: Outcome<V>,
    ttl: number,
  ): void {
    if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
    if (generation !== this.generation || ttl <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { outcome, expiresAt: this.now() + ttl });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }
}
