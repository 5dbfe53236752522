import { normalizeFieldValue } from './index';
import { firstCharMask } from './mask-helpers';
import { maskFreeText, maskFullName } from './text-types';

describe('names, address parts, company, free text', () => {
  it.each([
    ['given_name', '  Jane  ', 'Jane'],
    ['given_name', 'Anne\u00a0 Marie', 'Anne Marie'],
    ['family_name', "O'Brien-Smith", "O'Brien-Smith"],
    ['full_name', 'Maria   de la Cruz', 'Maria de la Cruz'],
    ['full_name', '山田 太郎', '山田 太郎'],
    ['address_line', 'Hauptstraße 5', 'Hauptstraße 5'],
    ['address_line', '12', '12'],
    ['city', 'S\u0327\u0131rnak', 'Şırnak'],
    ['company', '3M', '3M'],
    ['free_text', 'Line one\r\nLine two\rLine three\u2028four', 'Line one\nLine two\nLine three\nfour'],
    ['free_text', 'Name:\tJane', 'Name:\tJane'],
  ] as const)('%s accepts %j as %j', (type, input, stored) => {
    expect(normalizeFieldValue(type, input)).toEqual({ ok: true, value: stored });
  });

  it.each([
    ['given_name', '12345', 'must contain a letter'],
    ['full_name', '-- --', 'must contain a letter'],
    ['given_name', 'Jane\nDoe', 'must be a single line without control characters (no line breaks or tabs)'],
    ['city', 'Ber\tlin', 'must be a single line without control characters (no line breaks or tabs)'],
    [
      'address_line',
      'Main St\u2028 5',
      'must be a single line without control characters (no line breaks or tabs)',
    ],
    ['free_text', 'bell\u0007', 'must not contain control characters'],
    ['free_text', 'C1 control \u0085 here', 'must not contain control characters'],
    ['free_text', 'x'.repeat(1001), 'must be at most 1000 characters'],
    ['company', `A${'\u202e'}B`, 'must not contain bidirectional override characters'],
  ] as const)('%s refuses %j', (type, input, rule) => {
    expect(normalizeFieldValue(type, input)).toEqual({ ok: false, rule });
  });

  it('masks names to their first letter, a one-letter value to stars only', () => {
    expect(firstCharMask('Jane')).toBe('J***');
    expect(firstCharMask('Ümit')).toBe('Ü***');
    expect(firstCharMask('𝒜lice')).toBe('𝒜***');
    expect(firstCharMask('J')).toBe('***');
  });

  it('masks a full name to the initials of its first and last words', () => {
    expect(maskFullName('Jane Doe')).toBe('J*** D***');
    expect(maskFullName('Maria de la Cruz')).toBe('M*** C***');
    expect(maskFullName('Cher')).toBe('C***');
    expect(maskFullName('J D')).toBe('*** ***');
  });

  it('masks free text to its first character and its length', () => {
    expect(maskFreeText('The quick brown fox jumps over the lazy dog')).toBe('T*** (43 chars)');
    expect(maskFreeText('東京都')).toBe('東*** (3 chars)');
    expect(maskFreeText('x')).toBe('*** (1 char)');
  });
});
