import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { RunMetrics } from '@svc/contracts';
import type { Logger } from '@svc/log';
import { z } from 'zod';
import type { CachePort } from '../kit/handler';
import type { HostnameSet } from './crt-result';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** How the run's hostnames were obtained (RunMetrics.cache). */
export type CacheOutcome = NonNullable<RunMetrics['cache']>;

export interface HostnameLookup {
  set: HostnameSet;
  cache: CacheOutcome;
  /** ms spent waiting on providers (0 on a cache hit). */
  providerMs: number;
}

export interface HostnameSourceOptions {
  /** The capability's cache (the worker's Redis: the entry of an apex is `<BUS_PREFIX>:crt:cache:<apex>`). */
  cache: CachePort;
  /** ms: entry lifetime (CRT_CACHE_TTL_MS); 0 = no cache and no single flight. */
  ttlMs: number;
  /** bytes: gzip entries larger than this are not written (CRT_CACHE_MAX_BYTES). */
  maxBytes: number;
  /** The providers with failover (throws ProvidersUnavailableError when all fail). */
  fetch: (apex: string, signal: AbortSignal) => Promise<HostnameSet>;
  logger: Logger;
  now?: () => number;
}

/** Cache entry format, version 1: what `HostnameSet` holds, timestamps as epoch ms. */
const CacheEntry = z.object({
  v: z.literal(1),
  provider: z.string(),
  truncated: z.boolean(),
  entries: z.array(z.tuple([z.string(), z.number().nullable()])),
});

/** What `write` stores: a CacheEntry, with the set's read-only entries as they are (no copy). */
type StoredEntry = Omit<z.input<typeof CacheEntry>, 'entries'> & Pick<HostnameSet, 'entries'>;

/**
 * The hostnames of an apex, from the per-apex Redis cache when fresh, else from the providers. Repeat
 * runs within the TTL do not hammer the provider (crt.sh rate-limits and is slow for big domains).
 * Failures are never cached. Concurrent misses for one apex in this process share one provider call
 * (single flight); the runs that joined a flight report `miss` with the time they waited.
 * The cache is an optimisation: if Redis fails, runs go to the providers and the error is logged.
 */
export class HostnameSource {
  private readonly flights = new Map<string, Promise<HostnameSet>>();
  private readonly now: () => number;

  constructor(private readonly options: HostnameSourceOptions) {
    this.now = options.now ?? Date.now;
  }

  async lookup(apex: string, signal: AbortSignal): Promise<HostnameLookup> {
    if (this.options.ttlMs <= 0) {
      const started = this.now();
      const set = await this.options.fetch(apex, signal);
      return { set, cache: 'off', providerMs: this.now() - started };
    }
    const cached = await this.read(apex);
    if (cached) return { set: cached, cache: 'hit', providerMs: 0 };

    const started = this.now();
    let flight = this.flights.get(apex);
    if (!flight) {
      // The flight runs under the signal of the run that started it: if that run is cancelled, the
      // runs that joined fail too and are retried by BullMQ (rare; keeps one provider call per apex).
      flight = this.fetchAndStore(apex, signal).finally(() => this.flights.delete(apex));
      this.flights.set(apex, flight);
    }
    const set = await flight;
    return { set, cache: 'miss', providerMs: this.now() - started };
  }

  private async fetchAndStore(apex: string, signal: AbortSignal): Promise<HostnameSet> {
    const set = await this.options.fetch(apex, signal);
    await this.write(apex, set);
    return set;
  }

  private async read(apex: string): Promise<HostnameSet | undefined> {
    try {
      const stored = await this.options.cache.get(apex);
      if (stored === undefined) return undefined;
      const entry = CacheEntry.safeParse(JSON.parse((await gunzipAsync(stored)).toString('utf8')));
      if (!entry.success) {
        this.options.logger.warn({ apex }, 'crt cache entry unreadable; fetching again');
        return undefined;
      }
      return { provider: entry.data.provider, truncated: entry.data.truncated, entries: entry.data.entries };
    } catch (err) {
      this.options.logger.warn({ apex, err: errorMessage(err) }, 'crt cache read failed; fetching');
      return undefined;
    }
  }

  private async write(apex: string, set: HostnameSet): Promise<void> {
    try {
      const entry: StoredEntry = {
        v: 1,
        provider: set.provider,
        truncated: set.truncated,
        entries: set.entries,
      };
      const packed = await gzipAsync(Buffer.from(JSON.stringify(entry), 'utf8'));
      if (packed.byteLength > this.options.maxBytes) {
        this.options.logger.info(
          { apex, bytes: packed.byteLength, max_bytes: this.options.maxBytes },
          'crt cache entry too large; not cached',
        );
        return;
      }
      await this.options.cache.set(apex, packed, this.options.ttlMs);
    } catch (err) {
      this.options.logger.warn({ apex, err: errorMessage(err) }, 'crt cache write failed');
    }
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
