import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// Only SHA-256 of the secret is stored (auth.api_keys.secret_hash, 32 bytes). The secret carries
// 256 random bits, so a plain (unsalted, fast) hash is enough: there is nothing to brute-force.
// The hash is taken over the secret's base62 text exactly as it appears in the key.
export const SECRET_DIGEST_BYTES = 32;

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

// Compared against when the key id is unknown or revoked, so that the work done (hash + compare)
// is the same whether or not a key id exists. Random per process: it can match nothing.
const DUMMY_DIGEST = randomBytes(SECRET_DIGEST_BYTES);

/**
 * Constant-time equality of a presented digest and a stored one. `timingSafeEqual` throws on
 * different lengths, so a stored value of the wrong length (corrupt row) is compared against the
 * dummy digest and reported unequal.
 */
export function digestsEqual(presented: Uint8Array, stored: Uint8Array | null): boolean {
  if (presented.length !== SECRET_DIGEST_BYTES) {
    return false;
  }
  const usable = stored !== null && stored.length === SECRET_DIGEST_BYTES;
  const equal = timingSafeEqual(presented, usable ? stored : DUMMY_DIGEST);
  return usable && equal;
}
