import { maskIban, normalizeIban } from './iban';

describe('iban', () => {
  it.each([
    ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
    ['de89370400440532013000', 'DE89370400440532013000'],
    ['gb82-west-1234-5698-7654-32', 'GB82WEST12345698765432'],
    ['NO93\u00a08601\u00a01117\u00a0947', 'NO9386011117947'], // shortest IBAN (15), non-breaking spaces
    ['CH44 3199 9123 0008 8901 2', 'CH4431999123000889012'], // a QR-IBAN is an IBAN too
  ])('accepts %j as %s (compact, upper case)', (input, stored) => {
    expect(normalizeIban(input)).toEqual({ ok: true, value: stored });
  });

  it.each([
    [
      'a wrong check digit',
      'DE88 3704 0044 0532 0130 00',
      'must be an IBAN with a valid mod-97 check digit (ISO 13616)',
    ],
    [
      'a transposed digit',
      'DE89 3704 0044 0532 0103 00',
      'must be an IBAN with a valid mod-97 check digit (ISO 13616)',
    ],
    [
      'the wrong length for its country',
      'DE89 3704 0044 0532 0130 0',
      'must be an IBAN of the length fixed for its country (ISO 13616)',
    ],
    [
      'a country without IBANs',
      'XX89 3704 0044 0532 0130 00',
      'must be an IBAN of a country that uses IBANs (ISO 13616)',
    ],
    [
      'a letter where its country has digits',
      'DE89 3704 0044 0532 0130 0A',
      "must be an IBAN whose account part has its country's format (ISO 13616)",
    ],
    [
      'no check digits',
      'DEXX 3704 0044 0532 0130 00',
      'must be an IBAN: a country code, 2 check digits and up to 30 letters or digits (ISO 13616)',
    ],
    [
      'other characters',
      'DE89.3704.0044.0532.0130.00',
      'must be an IBAN: a country code, 2 check digits and up to 30 letters or digits (ISO 13616)',
    ],
    [
      'a non-ASCII letter that upper-cases to an ASCII one',
      'DE89 3704 0044 0532 0130 0\u0131',
      'must be an IBAN: a country code, 2 check digits and up to 30 letters or digits (ISO 13616)',
    ],
    [
      'text',
      'my iban',
      'must be an IBAN: a country code, 2 check digits and up to 30 letters or digits (ISO 13616)',
    ],
  ])('refuses %s', (_what, input, rule) => {
    expect(normalizeIban(input)).toEqual({ ok: false, rule });
  });

  it('masks all but the country, check digits and last four, grouped as printed', () => {
    expect(maskIban('DE89370400440532013000')).toBe('DE89 **** **** **** **30 00');
    expect(maskIban('GB82WEST12345698765432')).toBe('GB82 **** **** **** **54 32');
    expect(maskIban('NO9386011117947')).toBe('NO93 **** ***7 947');
  });
});
