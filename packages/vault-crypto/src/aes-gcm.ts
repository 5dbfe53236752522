import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM through node:crypto (OpenSSL's constant-time AES, not a table-based JS one), laid out
 * as `iv (12) | ciphertext | tag (16)`: one column per sealed thing, nothing to keep in step.
 */

export const KEY_BYTES = 32;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;

/** Seals `plaintext` under `key` with a fresh random IV; `aad` is authenticated, not stored. */
export function gcmSeal(key: Uint8Array, plaintext: Uint8Array, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

/**
 * Opens what gcmSeal made, or returns undefined: a short input, a wrong key or AAD and tampered
 * bytes all look the same from outside (GCM says only "not authentic"), and the caller knows the
 * subject to name in its error.
 */
export function gcmOpen(key: Uint8Array, sealed: Uint8Array, aad: string): Buffer | undefined {
  if (sealed.length < IV_BYTES + TAG_BYTES) return undefined;
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
  try {
    // authTagLength pinned: otherwise setAuthTag would accept a tag cut to 4 bytes.
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    return undefined;
  }
}
