import { createHmac, randomBytes } from 'node:crypto';
import { SingleFlightCache } from '@svc/service-kit';
import type { AuthContext } from '../locals';
import type { KeyVerifier } from './auth';

// Verified keys one gateway process keeps: far above the keys that call one gateway within the age
// bound; past it the least recently used identity is dropped (its next request reads the database).
const DEFAULT_MAX_ENTRIES = 10_000;

/** What the cache needs from @svc/auth's ApiKeyStore (lookup) and KeyUseRecorder (note). */
export interface KeyLookup {
  /** The identity behind a presented key with its row id and last use, or null (no write). */
  lookup(presented: string): Promise<{
    id: string;
    lastUsedAt: Date | null;
    /** When the key stops verifying (null/absent: never): the cache never serves it past this. */
    expiresAt?: Date | null;
    identity: AuthContext;
  } | null>;
}

export interface VerifiedKeyCacheOptions {
  store: KeyLookup;
  /** Called after every successful verification (a cache hit too): records last_used_at off-path. */
  noteUse: (id: string, lastUsedAt: Date | null) => void;
  /** ms a verified identity is served from memory (API_KEY_CACHE_TTL_MS): the bound on a revocation. */
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

interface Verified {
  id: string;
  lastUsedAt: Date | null;
  expiresAt?: Date | null;
  identity: AuthContext;
}

/** Thrown inside the load for an invalid key: shared by concurrent waiters, never stored. */
const INVALID = Symbol('invalid API key');

/**
 * Verified API keys, per gateway process (issue 15 item 5): a key is checked against PostgreSQL at
 * most once per `ttlMs` (and once for all concurrent requests that present it), so the request path
 * costs no query. Entries are keyed by an HMAC of the presented key under a random per-process key,
 * so the map holds nothing that verifies anywhere else. Unknown, revoked or malformed keys are never
 * stored (a key created a moment ago must work at once). A key with an expiry is refused from the
 * moment it expires, even while its entry is still within `ttlMs`. `evictAll` (on `apikey.revoked`) drops
 * everything; the age bound covers an event that was lost.
 */
export class VerifiedKeyCache implements KeyVerifier {
  private readonly cache: SingleFlightCache<Verified>;
  private readonly hmacKey = randomBytes(32);
  private readonly now: () => number;

  constructor(private readonly options: VerifiedKeyCacheOptions) {
    this.now = options.now ?? Date.now;
    this.cache = new SingleFlightCache<Verified>({
      // 0 keeps nothing (single flight only): every request reads the database, as before.
      ttlMs: options.ttlMs,
      maxEntries: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
      ...(options.now === undefined ? {} : { now: options.now }),
    });
  }

  async verify(presented: string): Promise<AuthContext | null> {
    const cacheKey = createHmac('sha256', this.hmacKey).update(presented).digest('base64');
    let verified: Verified;
    try {
      verified = await this.cache.get(cacheKey, async () => {
        // The store hashes and compares the secret in constant time (ApiKeyStore.verify's rules).
        const found = await this.options.store.lookup(presented);
        if (found === null) throw INVALID;
        return found;
      });
    } catch (err) {
      if (err === INVALID) return null;
      throw err;
    }
    // An entry stays until ttlMs, but its key's expiry bounds it (an expired key does not come back
    // to life, so answering null until the entry ages out is right).
    if (verified.expiresAt != null && verified.expiresAt.getTime() <= this.now()) return null;
    this.options.noteUse(verified.id, verified.lastUsedAt);
    return verified.identity;
  }

  /**
   * Drops every verified key, and any load in flight is not stored (SingleFlightCache.clear): called
   * on `apikey.revoked`. Everything rather than the one key: revocations are rare, the event names a
   * key id and entries are keyed by the presented key; the refill is one query per active key.
   */
  evictAll(): void {
    this.cache.clear();
  }

  /** Number of stored entries (tests, metrics). */
  get size(): number {
    return this.cache.size;
  }
}
