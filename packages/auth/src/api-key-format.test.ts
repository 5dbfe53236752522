import { crc32 } from 'node:zlib';
import {
  API_KEY_LENGTH,
  API_KEY_PREFIX,
  apiKeyChecksum,
  extractKeyId,
  formatApiKey,
  generateApiKey,
  generateKeyId,
  isKeyId,
  parseApiKey,
} from './api-key-format';
import { decodeBase62 } from './base62';

const KEY_SHAPE = /^svc_live_[a-z0-9]{12}_[0-9A-Za-z]{49}$/;

/** Replaces one character of `text` at `index` with a different character of the same class. */
function mutateAt(text: string, index: number): string {
  const ch = text.charAt(index);
  const replacement = ch === 'a' ? 'b' : ch === '0' ? '1' : ch === 'A' ? 'B' : 'a';
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe('generateApiKey', () => {
  it('produces svc_live_<key_id>_<secret><checksum> of fixed length', () => {
    const { apiKey, keyId, secret } = generateApiKey();
    expect(apiKey).toMatch(KEY_SHAPE);
    expect(apiKey).toHaveLength(API_KEY_LENGTH);
    expect(API_KEY_LENGTH).toBe(9 + 12 + 1 + 43 + 6);
    expect(apiKey.startsWith(`${API_KEY_PREFIX}${keyId}_${secret}`)).toBe(true);
    expect(keyId).toMatch(/^[a-z0-9]{12}$/);
    expect(secret).toHaveLength(43);
  });

  it('carries 32 bytes of secret and a CRC32 checksum over everything before it', () => {
    const { apiKey, secret } = generateApiKey();
    const value = decodeBase62(secret);
    expect(value).not.toBeNull();
    expect(value! < 2n ** 256n).toBe(true);
    const body = apiKey.slice(0, -6);
    expect(decodeBase62(apiKey.slice(-6))).toBe(BigInt(crc32(body)));
    expect(apiKeyChecksum(body)).toBe(apiKey.slice(-6));
  });

  it('never repeats key ids or secrets', () => {
    const keys = Array.from({ length: 500 }, () => generateApiKey());
    expect(new Set(keys.map((k) => k.keyId)).size).toBe(500);
    expect(new Set(keys.map((k) => k.secret)).size).toBe(500);
  });

  it('uses every key-id character (no stuck alphabet)', () => {
    const seen = new Set(Array.from({ length: 400 }, () => generateKeyId()).join(''));
    expect(seen.size).toBe(36);
  });
});

describe('parseApiKey', () => {
  it('parses a generated key back into key id and secret', () => {
    const key = generateApiKey();
    expect(parseApiKey(key.apiKey)).toEqual({ keyId: key.keyId, secret: key.secret });
  });

  it('accepts a key assembled with formatApiKey', () => {
    const secret = 'A'.repeat(43);
    const apiKey = formatApiKey('abcdefghij01', secret);
    expect(parseApiKey(apiKey)).toEqual({ keyId: 'abcdefghij01', secret });
  });

  it('rejects any single-character change (checksum or shape)', () => {
    const { apiKey } = generateApiKey();
    for (let i = 0; i < apiKey.length; i += 1) {
      expect(parseApiKey(mutateAt(apiKey, i))).toBeNull();
    }
  });

  it('rejects a tampered secret carrying the old checksum', () => {
    const { apiKey, keyId, secret } = generateApiKey();
    const other = generateApiKey().secret;
    const forged = `${API_KEY_PREFIX}${keyId}_${other}${apiKey.slice(-6)}`;
    expect(other).not.toBe(secret);
    expect(parseApiKey(forged)).toBeNull();
  });

  it('rejects malformed input without throwing', () => {
    const { apiKey } = generateApiKey();
    const bad = [
      '',
      'svc_live_',
      apiKey.slice(0, -1),
      `${apiKey}x`,
      ` ${apiKey}`,
      apiKey.replace('svc_live_', 'svc_test_'),
      apiKey.replace('svc_live_', 'SVC_LIVE_'),
      apiKey.toUpperCase(),
      `Bearer ${apiKey}`,
      'x'.repeat(API_KEY_LENGTH),
    ];
    for (const text of bad) {
      expect(parseApiKey(text)).toBeNull();
    }
  });

  it('rejects an upper-case key id even with a matching checksum', () => {
    const apiKey = formatApiKey('ABCDEFGHIJ01', 'A'.repeat(43));
    expect(parseApiKey(apiKey)).toBeNull();
  });
});

describe('extractKeyId', () => {
  it('takes a bare key id or the id of a whole key', () => {
    const key = generateApiKey();
    expect(extractKeyId(key.keyId)).toBe(key.keyId);
    expect(extractKeyId(key.apiKey)).toBe(key.keyId);
    expect(extractKeyId(`  ${key.apiKey}\n`)).toBe(key.keyId);
  });

  it('refuses anything else', () => {
    const key = generateApiKey();
    expect(extractKeyId('short')).toBeNull();
    expect(extractKeyId(mutateAt(key.apiKey, 30))).toBeNull();
    expect(isKeyId('ABCDEFGHIJ01')).toBe(false);
    expect(isKeyId('abcdefghij01')).toBe(true);
  });
});
