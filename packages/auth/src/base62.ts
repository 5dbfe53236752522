// Fixed-width base62 (digits, then upper case, then lower case). Fixed width keeps every key the
// same length, so a parser can split secret and checksum by position without a separator.

export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE = 62n;

/** Number of base62 digits needed for any value below 2^bits. */
export function base62Width(bits: number): number {
  return Math.ceil(bits / Math.log2(62));
}

/** Encodes a non-negative integer as exactly `width` base62 digits (left-padded with '0'). */
export function encodeBase62(value: bigint, width: number): string {
  if (value < 0n) {
    throw new RangeError('base62: negative value');
  }
  let rest = value;
  let out = '';
  while (rest > 0n) {
    out = BASE62_ALPHABET.charAt(Number(rest % BASE)) + out;
    rest /= BASE;
  }
  if (out.length > width) {
    throw new RangeError(`base62: value needs ${out.length} digits, width is ${width}`);
  }
  return out.padStart(width, '0');
}

/** Decodes base62 digits; returns null when a character is outside the alphabet. */
export function decodeBase62(text: string): bigint | null {
  let value = 0n;
  for (const ch of text) {
    const digit = BASE62_ALPHABET.indexOf(ch);
    if (digit < 0) {
      return null;
    }
    value = value * BASE + BigInt(digit);
  }
  return value;
}

/** Encodes bytes (big-endian) as fixed-width base62 wide enough for any value of that byte length. */
export function encodeBytesBase62(bytes: Uint8Array): string {
  const value = bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  return encodeBase62(value, base62Width(bytes.length * 8));
}
