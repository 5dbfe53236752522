import { randomBytes } from 'node:crypto';
import { BASE62_ALPHABET, base62Width, decodeBase62, encodeBase62, encodeBytesBase62 } from './base62';

describe('base62', () => {
  it('knows how many digits a bit width needs', () => {
    expect(base62Width(32)).toBe(6);
    expect(base62Width(256)).toBe(43);
    // 62^5 < 2^32: five digits would not be enough for every CRC32.
    expect(62 ** 5).toBeLessThan(2 ** 32);
    expect(62 ** 6).toBeGreaterThanOrEqual(2 ** 32);
  });

  it('encodes fixed width with left padding', () => {
    expect(encodeBase62(0n, 3)).toBe('000');
    expect(encodeBase62(61n, 2)).toBe('0z');
    expect(encodeBase62(62n, 2)).toBe('10');
    expect(encodeBase62(0xffffffffn, 6)).toBe('4gfFC3');
  });

  it('refuses values that do not fit or are negative', () => {
    expect(() => encodeBase62(62n ** 3n, 3)).toThrow(RangeError);
    expect(() => encodeBase62(-1n, 3)).toThrow(RangeError);
  });

  it('round-trips through decode', () => {
    for (let i = 0; i < 50; i += 1) {
      const bytes = randomBytes(32);
      const text = encodeBytesBase62(bytes);
      expect(text).toHaveLength(43);
      expect(decodeBase62(text)).toBe(BigInt(`0x${bytes.toString('hex')}`));
    }
  });

  it('encodes all-zero and all-ones 32-byte values in exactly 43 digits', () => {
    expect(encodeBytesBase62(Buffer.alloc(32, 0))).toBe('0'.repeat(43));
    const max = encodeBytesBase62(Buffer.alloc(32, 0xff));
    expect(max).toHaveLength(43);
    expect(decodeBase62(max)).toBe(2n ** 256n - 1n);
  });

  it('rejects characters outside the alphabet when decoding', () => {
    expect(decodeBase62('abc-')).toBeNull();
    expect(decodeBase62(BASE62_ALPHABET)).not.toBeNull();
  });
});
