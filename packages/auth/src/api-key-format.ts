import { randomBytes } from 'node:crypto';
// node:zlib crc32 exists since Node 20.15 / 22.2 (engines: node >= 20.19).
import { crc32 } from 'node:zlib';
import { base62Width, encodeBase62, encodeBytesBase62 } from './base62';

// Key layout: svc_live_<key_id>_<secret><checksum>
//   key_id    12 chars [a-z0-9], public, unique, the database lookup column;
//   secret    32 random bytes as fixed-width base62 (43 chars);
//   checksum  CRC32 of everything before it, fixed-width base62 (6 chars). It is not a security
//             measure: it lets the gateway and secret scanners reject typos and garbage without a
//             database lookup.
export const API_KEY_PREFIX = 'svc_live_';
export const KEY_ID_LENGTH = 12;
export const SECRET_BYTES = 32;
export const SECRET_LENGTH = base62Width(SECRET_BYTES * 8); // 43
export const CHECKSUM_LENGTH = base62Width(32); // 6: 62^5 < 2^32 <= 62^6
export const API_KEY_LENGTH = API_KEY_PREFIX.length + KEY_ID_LENGTH + 1 + SECRET_LENGTH + CHECKSUM_LENGTH;

const KEY_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
// Largest multiple of 36 below 256: bytes at or above it are discarded so every character is
// equally likely (no modulo bias).
const KEY_ID_BYTE_LIMIT = 256 - (256 % KEY_ID_ALPHABET.length);

const KEY_ID_PATTERN = /^[a-z0-9]{12}$/;
const API_KEY_PATTERN = /^svc_live_([a-z0-9]{12})_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/;

export interface ParsedApiKey {
  keyId: string;
  secret: string;
}

export interface GeneratedApiKey extends ParsedApiKey {
  /** The whole key, shown to the operator once and never stored. */
  apiKey: string;
}

/** The 6-char checksum of a key body (`svc_live_<key_id>_<secret>`). */
export function apiKeyChecksum(body: string): string {
  return encodeBase62(BigInt(crc32(body)), CHECKSUM_LENGTH);
}

/** Assembles a key from its parts, appending the checksum. */
export function formatApiKey(keyId: string, secret: string): string {
  const body = `${API_KEY_PREFIX}${keyId}_${secret}`;
  return body + apiKeyChecksum(body);
}

export function isKeyId(text: string): boolean {
  return KEY_ID_PATTERN.test(text);
}

/** A random 12-char key id over [a-z0-9] (about 62 bits). */
export function generateKeyId(): string {
  let out = '';
  while (out.length < KEY_ID_LENGTH) {
    for (const byte of randomBytes(KEY_ID_LENGTH * 2)) {
      if (byte < KEY_ID_BYTE_LIMIT && out.length < KEY_ID_LENGTH) {
        out += KEY_ID_ALPHABET.charAt(byte % KEY_ID_ALPHABET.length);
      }
    }
  }
  return out;
}

/** A fresh key: random key id, 32-byte secret from crypto.randomBytes, checksum. */
export function generateApiKey(): GeneratedApiKey {
  const keyId = generateKeyId();
  const secret = encodeBytesBase62(randomBytes(SECRET_BYTES));
  return { keyId, secret, apiKey: formatApiKey(keyId, secret) };
}

/**
 * Splits a presented key into key id and secret. Returns null for anything malformed or with a
 * wrong checksum; never touches the database, so garbage costs nothing.
 */
export function parseApiKey(text: string): ParsedApiKey | null {
  if (typeof text !== 'string' || text.length !== API_KEY_LENGTH) {
    return null;
  }
  const match = API_KEY_PATTERN.exec(text);
  if (!match) {
    return null;
  }
  const [, keyId, secret, checksum] = match;
  if (keyId === undefined || secret === undefined || checksum === undefined) {
    return null;
  }
  if (apiKeyChecksum(text.slice(0, -CHECKSUM_LENGTH)) !== checksum) {
    return null;
  }
  return { keyId, secret };
}

/** The key id from either a bare key id or a whole (well-formed) key; null otherwise. */
export function extractKeyId(text: string): string | null {
  const trimmed = text.trim();
  if (isKeyId(trimmed)) {
    return trimmed;
  }
  return parseApiKey(trimmed)?.keyId ?? null;
}
