import { maskIdentifier, maskPostalCode } from './identifiers';
import { normalizeFieldValue } from './index';

const IDENTIFIER_RULE =
  "must be letters A-Z and digits (with ' ', '.', '/' or '-' between them): at least 4, one of them a digit";
const PASSPORT_RULE = 'must be a passport number of 5-20 letters A-Z and digits, with at least one digit';
const POSTAL_RULE = 'must be a postal code of 2-12 letters A-Z, digits, spaces or hyphens';

describe('identifiers and postal codes', () => {
  it.each([
    ['national_id', 'qq 12  34 56 c', 'QQ 12 34 56 C'],
    ['national_id', 'T22000129', 'T22000129'],
    ['national_id', '123.456.789-09', '123.456.789-09'],
    ['tax_id', 'de123456789', 'DE123456789'],
    ['tax_id', '12/345/67890', '12/345/67890'],
    ['passport_number', 'c01x 00t47', 'C01X00T47'],
    ['postal_code', 'sw1a  1aa', 'SW1A 1AA'],
    ['postal_code', '10115', '10115'],
    ['postal_code', '00-950', '00-950'],
  ] as const)('%s accepts %j as %j', (type, input, stored) => {
    expect(normalizeFieldValue(type, input)).toEqual({ ok: true, value: stored });
  });

  it.each([
    ['national_id', 'AB1', IDENTIFIER_RULE],
    ['national_id', 'ABCDEFG', IDENTIFIER_RULE],
    ['national_id', '-123456', IDENTIFIER_RULE],
    ['tax_id', '123_456_789', IDENTIFIER_RULE],
    ['tax_id', 'Ü12345678', IDENTIFIER_RULE],
    ['tax_id', 'ß12345678', IDENTIFIER_RULE], // not upper-cased into "SS12345678"
    ['passport_number', 'c01x00t4ß', PASSPORT_RULE],
    ['postal_code', 'ſw1a 1aa', POSTAL_RULE],
    ['passport_number', '1234', PASSPORT_RULE],
    ['passport_number', 'ABCDEFGH', PASSPORT_RULE],
    ['passport_number', 'C01X00T4<', PASSPORT_RULE],
    ['postal_code', '1', POSTAL_RULE],
    ['postal_code', '10115!', POSTAL_RULE],
    ['postal_code', '1234567890123', 'must be at most 12 characters'],
  ] as const)('%s refuses %j', (type, input, rule) => {
    expect(normalizeFieldValue(type, input)).toEqual({ ok: false, rule });
  });

  it('masks identifiers to their last 3 (10 or more), 2 (6-9) or no characters', () => {
    expect(maskIdentifier('12 345 678 901')).toBe('****901');
    expect(maskIdentifier('C01X00T47')).toBe('****47');
    expect(maskIdentifier('QQ 12 34 56 C')).toBe('****6C');
    expect(maskIdentifier('12345')).toBe('****');
  });

  it('masks postal codes to their first two characters, a short one to stars', () => {
    expect(maskPostalCode('10115')).toBe('10***');
    expect(maskPostalCode('SW1A 1AA')).toBe('SW** ***');
    expect(maskPostalCode('00-950')).toBe('00-***');
    expect(maskPostalCode('101')).toBe('***');
  });
});
