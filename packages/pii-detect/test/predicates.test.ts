import {
  cardNetwork,
  codePointLength,
  codePointOffsets,
  ibanLength,
  ibanValid,
  luhnValid,
  scanPii,
} from '../src/index';

describe('luhnValid', () => {
  test.each(['4111111111111111', '5555555555554444', '378282246310005', '79927398713', '0'])(
    '%s passes',
    (digits) => {
      expect(luhnValid(digits)).toBe(true);
    },
  );

  test.each([
    ['a wrong check digit', '4111111111111112'],
    ['spaces', '4111 1111 1111 1111'],
    ['letters', '41111111111111a1'],
    ['nothing', ''],
  ])('%s fails', (_why, digits) => {
    expect(luhnValid(digits)).toBe(false);
  });
});

describe('cardNetwork', () => {
  test('names the issuer when prefix and length match, else null', () => {
    expect(cardNetwork('4111111111111111')).toBe('visa');
    expect(cardNetwork('5555555555554444')).toBe('mastercard');
    expect(cardNetwork('378282246310005')).toBe('amex');
    expect(cardNetwork('37828224631000')).toBeNull(); // Amex is 15 digits
    expect(cardNetwork('9111111111111111')).toBeNull();
  });
});

describe('ibanValid / ibanLength', () => {
  test.each([
    'DE89370400440532013000',
    'GB29NWBK60161331926819',
    'FR1420041010050500013M02606',
    'NO9386011117947',
  ])('%s is valid', (iban) => {
    expect(ibanValid(iban)).toBe(true);
  });

  test.each([
    ['a wrong check digit', 'DE89370400440532013001'],
    ['the wrong length for DE', 'DE8937040044053201300'],
    ['an unknown country', 'XX89370400440532013000'],
    ['lower case (callers compact and upper-case first)', 'de89370400440532013000'],
    ['spaces', 'DE89 3704 0044 0532 0130 00'],
  ])('%s fails', (_why, iban) => {
    expect(ibanValid(iban)).toBe(false);
  });

  test('lengths per country', () => {
    expect(ibanLength('DE')).toBe(22);
    expect(ibanLength('GB')).toBe(22);
    expect(ibanLength('XX')).toBeUndefined();
  });
});

describe('scanPii', () => {
  test('finds every kind, email > iban > card > phone, without overlaps', () => {
    const text =
      'Call +44 20 7946 0958, mail jane@example.com, IBAN GB29 NWBK 6016 1331 9268 19, card 4111-1111-1111-1111.';
    const found = scanPii(text).map(({ kind, span }) => [kind, text.slice(span.start, span.end)]);
    expect(found).toEqual([
      ['email', 'jane@example.com'],
      ['iban', 'GB29 NWBK 6016 1331 9268 19'],
      ['card', '4111-1111-1111-1111'],
      ['phone', '+44 20 7946 0958'],
    ]);
  });

  test('an invalid IBAN is dropped, and no card or phone is cut out of it', () => {
    expect(scanPii('IBAN DE89 3704 0044 0532 0130 01')).toEqual([]);
  });
});

describe('code points', () => {
  test('UTF-16 indexes become code-point offsets; an emoji counts once', () => {
    const text = 'a😀b😀c';
    const toCodePoint = codePointOffsets(text);
    expect([0, 1, 3, 4, 6].map(toCodePoint)).toEqual([0, 1, 2, 3, 4]);
    expect(codePointLength(text)).toBe(5);
  });
});
