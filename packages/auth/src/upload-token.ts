import { createHash, randomBytes } from 'node:crypto';
import { base62Width, encodeBytesBase62 } from './base62';
import { digestsEqual } from './secret-hash';

// Upload tokens (spec §2.4, §5.4; docs/decisions.md U2): `upl_` + 32 random bytes as fixed-width
// base62 (43 chars). A token authorizes one PUT of one upload session; only SHA-256 of the whole
// token is stored (uploads.upload_sessions.token_hash), and the `upl_` prefix lets @svc/log and
// secret scanners recognise (and redact) it wherever it shows up.
export const UPLOAD_TOKEN_PREFIX = 'upl_';
const UPLOAD_TOKEN_BYTES = 32;
export const UPLOAD_TOKEN_SECRET_LENGTH = base62Width(UPLOAD_TOKEN_BYTES * 8); // 43
const UPLOAD_TOKEN_PATTERN = /^upl_[0-9A-Za-z]{43}$/;

/** A fresh upload token (crypto.randomBytes); shown to the client once, never stored or logged. */
export function generateUploadToken(): string {
  return `${UPLOAD_TOKEN_PREFIX}${encodeBytesBase62(randomBytes(UPLOAD_TOKEN_BYTES))}`;
}

/** Whether `text` has the shape of an upload token (no lookup: garbage costs nothing). */
export function isUploadToken(text: string): boolean {
  return typeof text === 'string' && UPLOAD_TOKEN_PATTERN.test(text);
}

/**
 * SHA-256 of the whole token text (32 bytes): what is stored. The token carries 256 random bits, so
 * a plain fast hash is enough (nothing to brute-force), as for API key secrets.
 */
export function uploadTokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * Whether `token` is the one whose hash is `storedHash`, in constant time (timingSafeEqual on the
 * two digests). A missing or malformed stored hash (unknown upload) is compared against a dummy, so
 * the work done does not tell whether the upload exists.
 */
export function uploadTokenMatches(token: string, storedHash: Uint8Array | null): boolean {
  const presented = uploadTokenHash(token);
  return digestsEqual(presented, storedHash) && isUploadToken(token);
}
