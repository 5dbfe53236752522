import type { VaultFieldType } from '@svc/contracts';
import { composeIBAN } from 'ibantools';
import { FIELD_TYPE_SPECS, maskValue, normalizeFieldValue } from './index';

/** At most this many consecutive characters of a secret value may appear in its mask. */
const N = 4;

describe('maskValue: the documented examples', () => {
  it.each([
    ['email', 'jane.doe@example.com', 'j***@example.com'],
    ['iban', 'DE89370400440532013000', 'DE89 **** **** **** **30 00'],
    ['payment_card', '4111111111111111', '**** 1111'],
    ['phone', '+493012345645', '+49 *** *** 45'],
    ['date_of_birth', '1990-04-15', '****-**-15'],
    ['given_name', 'Jane', 'J***'],
    ['middle_name', 'Marie', 'M***'],
    ['family_name', 'Doe', 'D***'],
    ['full_name', 'Jane Doe', 'J*** D***'],
    ['address_line', 'Hauptstraße 5', 'H***'],
    ['postal_code', '10115', '10***'],
    ['city', 'Berlin', 'B***'],
    ['region', 'Bavaria', 'B***'],
    ['country', 'DE', 'DE'],
    ['national_id', 'T22000129', '****29'],
    ['passport_number', 'C01X00T47', '****47'],
    ['tax_id', '12 345 678 901', '****901'],
    ['company', 'Example GmbH', 'E***'],
    ['free_text', 'The quick brown fox jumps over the lazy dog, twice', 'T*** (50 chars)'],
  ] as const)('%s %s → %s', (type, value, mask) => {
    expect(normalizeFieldValue(type, value)).toEqual({ ok: true, value });
    expect(maskValue(type, value)).toBe(mask);
  });
});

// --- generated values ------------------------------------------------------------------------------

/** mulberry32: a small seeded PRNG, so a failure names a value that reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const next = random(16);
const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
const chars = (alphabet: string, min: number, max: number) => {
  const letters = Array.from(alphabet);
  return Array.from({ length: int(min, max) }, () => pick(letters)).join('');
};

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZäöüßéèçñŞğ東京山田太郎𝒜';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const DIGITS = '0123456789';

function luhnCompleted(body: string): string {
  for (let check = 0; check <= 9; check += 1) {
    const digits = `${body}${check}`;
    let sum = 0;
    for (let i = 0; i < digits.length; i += 1) {
      let digit = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    if (sum % 10 === 0) return digits;
  }
  throw new Error('unreachable');
}

const GENERATORS: Record<VaultFieldType, () => string> = {
  given_name: () => chars(LETTERS, 1, 20),
  middle_name: () => chars(LETTERS, 1, 20),
  family_name: () => chars(LETTERS, 1, 30),
  full_name: () => Array.from({ length: int(1, 4) }, () => chars(LETTERS, 1, 12)).join(' '),
  email: () =>
    `${chars('abcdefghij0123456789', 1, 20)}@${chars('abcdefgh', 1, 10)}.${pick(['com', 'de', 'example'])}`,
  phone: () => `+${pick(['49 30', '44 20', '1 415', '33 1', '81 3'])} ${chars(DIGITS, 7, 8)}`,
  date_of_birth: () =>
    `${int(1900, 2025)}-${String(int(1, 12)).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')}`,
  address_line: () => `${chars(LETTERS, 3, 20)} ${int(1, 999)}`,
  postal_code: () => chars(ALNUM, 2, 10),
  city: () => chars(LETTERS, 1, 20),
  region: () => chars(LETTERS, 1, 20),
  country: () => pick(['DE', 'FR', 'GB', 'US', 'JP', 'TR', 'BR', 'XK']),
  iban: () =>
    composeIBAN(
      pick([
        { countryCode: 'DE', bban: chars(DIGITS, 18, 18) },
        { countryCode: 'NO', bban: chars(DIGITS, 11, 11) },
        { countryCode: 'GB', bban: `${chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 4, 4)}${chars(DIGITS, 14, 14)}` },
        { countryCode: 'NL', bban: `${chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 4, 4)}${chars(DIGITS, 10, 10)}` },
      ]),
    ) ?? '',
  payment_card: () => luhnCompleted(chars(DIGITS, 11, 18)),
  national_id: () => `${chars(ALNUM, 1, 20)}${int(0, 9)}`,
  passport_number: () => `${chars(ALNUM, 4, 12)}${int(0, 9)}`,
  tax_id: () => `${chars(ALNUM, 3, 20)}${int(0, 9)}`,
  company: () => `${chars(LETTERS, 1, 20)} ${pick(['GmbH', 'Ltd', 'SA', 'Inc.'])}`,
  free_text: () => chars(`${LETTERS} .,\n`, 1, 300),
};

/** The substrings of `value` (code points) of length N + 1: none may appear in a mask. */
function tooLongRuns(value: string): string[] {
  const points = Array.from(value);
  const runs: string[] = [];
  for (let i = 0; i + N < points.length; i += 1) runs.push(points.slice(i, i + N + 1).join(''));
  return runs;
}

/** The part of a value (or of its mask) that must stay hidden. */
function secretPart(type: VaultFieldType, value: string): string {
  // Documented exception (VF4): an e-mail's domain is shown; its local part is the secret.
  return type === 'email' ? value.slice(0, value.lastIndexOf('@')) : value;
}

describe('maskValue: generated values', () => {
  const secretTypes = FIELD_TYPE_SPECS.filter((spec) => spec.type !== 'country');

  it.each(secretTypes.map((spec) => [spec.type] as const))(
    `%s: the mask never holds the whole value nor more than ${N} consecutive characters of it`,
    (type) => {
      let checked = 0;
      for (let i = 0; i < 400; i += 1) {
        const normalized = normalizeFieldValue(type, GENERATORS[type]());
        if (!normalized.ok) continue;
        const value = normalized.value;
        const mask = maskValue(type, value);
        const secret = secretPart(type, value);
        const shown = secretPart(type, mask);
        const compactShown = shown.replace(/[\s-]/g, '');
        const runs = [...tooLongRuns(secret), ...tooLongRuns(secret.replace(/[\s-]/g, ''))];
        const leaks = runs.filter((run) => shown.includes(run) || compactShown.includes(run));
        const whole = mask === value || shown.includes(secret);
        expect({ value, mask, whole, leaks }).toEqual({ value, mask, whole: false, leaks: [] });
        checked += 1;
      }
      // The generators mostly produce valid values: the property was tested on enough of them.
      expect(checked).toBeGreaterThan(300);
    },
  );

  it('short values are never shown whole', () => {
    const shortest: [VaultFieldType, string][] = [
      ['given_name', 'J'],
      ['full_name', 'J D'],
      ['city', 'Å'],
      ['free_text', 'x'],
      ['postal_code', '12'],
      ['national_id', '1234'],
      ['passport_number', '1234A'],
      ['email', 'j@example.com'],
    ];
    for (const [type, value] of shortest) {
      const normalized = normalizeFieldValue(type, value);
      expect(normalized).toEqual({ ok: true, value });
      expect(secretPart(type, maskValue(type, value))).not.toContain(secretPart(type, value));
    }
  });
});
