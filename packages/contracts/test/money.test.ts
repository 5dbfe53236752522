import { microsFromUsd, SignedUsdAmount, signedUsdFromMicros, UsdAmount, usdFromMicros } from '../src/index';

describe('usdFromMicros', () => {
  test.each([
    [0n, '0.00'],
    [4_000n, '0.004'],
    [12_500_000n, '12.50'],
    [12_000_000n, '12.00'],
    [1n, '0.000001'],
    [10n, '0.00001'],
    [123_456_789n, '123.456789'],
    [100_000n, '0.10'],
    [5_000_000, '5.00'],
    [999_999_999_999_999_999n, '999999999999.999999'],
  ])('%p -> %p', (micros, text) => {
    expect(usdFromMicros(micros)).toBe(text);
  });

  test('rejects negatives and unsafe or fractional numbers', () => {
    expect(() => usdFromMicros(-1n)).toThrow(RangeError);
    expect(() => usdFromMicros(-1)).toThrow(RangeError);
    expect(() => usdFromMicros(1.5)).toThrow(RangeError);
    expect(() => usdFromMicros(2 ** 60)).toThrow(RangeError);
  });

  test('rejects amounts above the UsdAmount range (10^12 USD)', () => {
    expect(() => usdFromMicros(1_000_000_000_000_000_000n)).toThrow(RangeError);
  });

  test('its output is a UsdAmount', () => {
    for (const micros of [0n, 1n, 999_999n, 1_000_000n, 123_456_789_012n]) {
      expect(UsdAmount.safeParse(usdFromMicros(micros)).success).toBe(true);
    }
  });
});

describe('signedUsdFromMicros', () => {
  test.each([
    [0n, '0.00'],
    [-4_000n, '-0.004'],
    [12_500_000n, '12.50'],
    [-2_000_000n, '-2.00'],
  ])('%p -> %p, a SignedUsdAmount', (micros, text) => {
    expect(signedUsdFromMicros(micros)).toBe(text);
    expect(SignedUsdAmount.safeParse(text).success).toBe(true);
  });
});

describe('microsFromUsd', () => {
  test.each([
    ['0', 0n],
    ['0.00', 0n],
    ['0.004', 4_000n],
    ['12.5', 12_500_000n],
    ['12.50', 12_500_000n],
    ['0.000001', 1n],
    ['999999999999.999999', 999_999_999_999_999_999n],
  ])('%p -> %p', (text, micros) => {
    expect(microsFromUsd(text)).toBe(micros);
  });

  test('is exact where floating point is not (0.1 + 0.2)', () => {
    expect(microsFromUsd('0.1') + microsFromUsd('0.2')).toBe(microsFromUsd('0.3'));
  });

  test('throws on more than 6 decimals, naming the problem', () => {
    expect(() => microsFromUsd('0.0000001')).toThrow(/more than 6 decimals/);
  });

  test('throws on anything that is not a UsdAmount', () => {
    for (const bad of ['-1', '', 'abc', '1.', '.5', '1e3', '01', ' 1']) {
      expect(() => microsFromUsd(bad)).toThrow(RangeError);
    }
  });

  test('round-trips with usdFromMicros', () => {
    for (const micros of [0n, 1n, 4_000n, 12_500_000n, 123_456_789n]) {
      expect(microsFromUsd(usdFromMicros(micros))).toBe(micros);
    }
  });
});
