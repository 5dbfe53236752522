import { maskCountry, normalizeCountry } from './country';

const RULE = 'must be an ISO 3166-1 country: an alpha-2 code (DE), an alpha-3 code (DEU) or an English name';

describe('country', () => {
  it.each([
    ['DE', 'DE'],
    ['de', 'DE'],
    ['DEU', 'DE'],
    ['deu', 'DE'],
    ['Germany', 'DE'],
    ['GERMANY', 'DE'],
    ['United  Kingdom', 'GB'],
    ['UK', 'GB'], // not an ISO code (GB is), but the English alias
    ['USA', 'US'],
    ["Côte d'Ivoire", 'CI'],
    ["cote d'ivoire", 'CI'],
    ['Türkiye', 'TR'],
    ['Turkey', 'TR'],
    ['XK', 'XK'], // Kosovo: user-assigned code, listed by i18n-iso-countries and used by the EU
  ])('accepts %j as %s', (input, stored) => {
    expect(normalizeCountry(input)).toEqual({ ok: true, value: stored });
  });

  it.each([
    ['an unassigned alpha-2 code', 'XX'],
    ['an unassigned alpha-3 code', 'ZZZ'],
    ['an unknown name', 'Atlantis'],
    ['a name two countries share', 'Congo'],
    ['a numeric code', '276'],
    ['a name in another language', 'Deutschland'],
    ['a dotless i upper-casing into a code', '\u0131t'],
  ])('refuses %s', (_what, input) => {
    expect(normalizeCountry(input)).toEqual({ ok: false, rule: RULE });
  });

  it('shows the code (a country is not secret on its own)', () => {
    expect(maskCountry('DE')).toBe('DE');
  });
});
