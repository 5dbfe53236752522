import { createHash } from 'node:crypto';
import { generateApiKey } from './api-key-format';
import {
  generateUploadToken,
  isUploadToken,
  UPLOAD_TOKEN_PREFIX,
  uploadTokenHash,
  uploadTokenMatches,
} from './upload-token';

describe('upload tokens', () => {
  it('are upl_ + 43 base62 characters, different every time', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => generateUploadToken()));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^upl_[0-9A-Za-z]{43}$/);
      expect(token.startsWith(UPLOAD_TOKEN_PREFIX)).toBe(true);
      expect(isUploadToken(token)).toBe(true);
    }
  });

  it('recognises only the token shape', () => {
    const token = generateUploadToken();
    expect(isUploadToken(`${token}x`)).toBe(false);
    expect(isUploadToken(token.slice(0, -1))).toBe(false);
    expect(isUploadToken(`upl-${token.slice(4)}`)).toBe(false);
    expect(isUploadToken(`${token.slice(0, -1)}!`)).toBe(false);
    expect(isUploadToken(generateApiKey().apiKey)).toBe(false);
    expect(isUploadToken('')).toBe(false);
  });

  it('are stored as SHA-256 of the whole token (32 bytes)', () => {
    const token = generateUploadToken();
    const hash = uploadTokenHash(token);
    expect(hash).toHaveLength(32);
    expect(hash.equals(createHash('sha256').update(token).digest())).toBe(true);
    expect(hash.toString('latin1')).not.toContain(token.slice(4));
  });

  it('match only their own hash', () => {
    const token = generateUploadToken();
    const stored = uploadTokenHash(token);
    expect(uploadTokenMatches(token, stored)).toBe(true);
    expect(uploadTokenMatches(token, new Uint8Array(stored))).toBe(true);
    expect(uploadTokenMatches(generateUploadToken(), stored)).toBe(false);
    const changed = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`;
    expect(uploadTokenMatches(changed, stored)).toBe(false);
  });

  it('never match a missing or malformed stored hash (and do not throw)', () => {
    const token = generateUploadToken();
    expect(uploadTokenMatches(token, null)).toBe(false);
    expect(uploadTokenMatches(token, uploadTokenHash(token).subarray(0, 16))).toBe(false);
    expect(uploadTokenMatches(token, Buffer.alloc(33))).toBe(false);
  });

  it('do not match text of another shape even when its hash is stored', () => {
    const notToken = 'upl_short';
    expect(uploadTokenMatches(notToken, uploadTokenHash(notToken))).toBe(false);
  });
});
