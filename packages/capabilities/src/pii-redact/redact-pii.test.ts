import { redactPii } from './redact-pii';
import { PII_MAX_CHARACTERS, PiiRedactInput, PiiRedactResult } from './schema';

/** Parses like the orchestrator and worker do (defaults: every type, label style). */
const redact = (raw: Record<string, unknown>) => redactPii(PiiRedactInput.parse(raw));
const redactText = (text: string) => redact({ text }).redacted_text;
/** Code points of the spans found, as text, in order. */
const foundIn = (text: string, types?: string[]) => {
  const result = redact(types === undefined ? { text } : { text, types });
  const chars = Array.from(text);
  return result.findings.map((finding) => [finding.type, chars.slice(finding.start, finding.end).join('')]);
};

describe('email', () => {
  test.each([
    'jane@example.com',
    'john.doe+newsletter@mail.example.co.uk',
    'first_last%dept@sub-domain.example.org',
    'x@y.io',
    'UPPER.Case@Example.COM',
    `${'a'.repeat(64)}@example.com`,
  ])('%s is an e-mail address', (address) => {
    expect(foundIn(`Write to ${address} today`)).toEqual([['email', address]]);
  });

  test('a sentence-ending dot, brackets and a mailto: prefix are not part of the address', () => {
    expect(redactText('Mail jane@example.com. Or <bob@example.org>, mailto:ann@example.net')).toBe(
      'Mail [EMAIL]. Or <[EMAIL]>, mailto:[EMAIL]',
    );
  });

  test.each([
    ['no TLD', 'root@localhost'],
    ['one-letter TLD', 'jane@example.c'],
    ['numeric TLD', 'jane@10.0.0.1'],
    ['no local part', 'see @example.com'],
    ['empty label', 'jane@example..com'],
    ['label starting with a hyphen', 'jane@-example.com'],
    ['a local part over 64 characters', `${'a'.repeat(65)}@example.com`],
    ['a handle', 'ping @jane on chat'],
  ])('%s: %s is left alone', (_why, text) => {
    expect(redact({ text }).findings).toEqual([]);
  });
});

describe('iban (ISO 13616 mod-97 and the country length)', () => {
  test.each([
    'DE89 3704 0044 0532 0130 00',
    'DE89370400440532013000',
    'GB29 NWBK 6016 1331 9268 19',
    'GB29NWBK60161331926819',
    'FR14 2004 1010 0505 0001 3M02 606',
    'NL91 ABNA 0417 1643 00',
    'CH93 0076 2011 6238 5295 7',
    'NO93 8601 1117 947',
    'AT61 1904 3002 3457 3201',
    'nl91abna0417164300',
  ])('%s is an IBAN', (iban) => {
    expect(foundIn(`Pay to ${iban}, thanks`)).toEqual([['iban', iban]]);
  });

  test('an IBAN followed by another number in groups ends at its country length', () => {
    expect(foundIn('BE68 5390 0754 7034 2026')).toEqual([['iban', 'BE68 5390 0754 7034']]);
  });

  test.each([
    ['a wrong check digit', 'DE89 3704 0044 0532 0130 01'],
    ['a wrong check digit, letters inside', 'GB29 NWBK 6016 1331 9268 18'],
    ['a wrong check digit, compact', 'DE89370400440532013001'],
    ['the wrong length for DE', 'DE89 3704 0044 0532 0130 0'],
    ['an unknown country', 'ZZ12 3456 7890 1234 56'],
  ])('%s is left alone entirely (%s): no IBAN, and no card or phone cut out of it', (_why, text) => {
    const result = redact({ text: `Account ${text}.` });
    expect(result.findings).toEqual([]);
    expect(result.redacted_text).toBe(`Account ${text}.`);
  });
});

describe('card (Luhn and issuer prefix)', () => {
  test.each([
    ['Visa', '4111 1111 1111 1111'],
    ['Visa, dashes', '4012-8888-8888-1881'],
    ['Visa, 13 digits', '4222222222222'],
    ['Mastercard 51-55', '5555 5555 5555 4444'],
    ['Mastercard 2221-2720', '2223 0031 2200 3222'],
    ['American Express 4-6-5', '3782 822463 10005'],
    ['American Express, compact', '371449635398431'],
    ['Discover 6011', '6011 1111 1111 1117'],
    ['Discover 65', '6500 0000 0000 0002'],
    ['JCB', '3530 1113 3330 0000'],
    ['Diners Club 4-6-4', '3056 930902 5904'],
    ['Diners Club 36', '36227206271667'],
    ['UnionPay', '6200 0000 0000 0005'],
    ['Maestro', '6759 6498 2643 8453'],
  ])('%s: %s is a card number', (_network, card) => {
    expect(foundIn(`Card ${card} exp 12/27`)).toEqual([['card', card]]);
  });

  test.each([
    ['fails Luhn', '4111 1111 1111 1112'],
    ['fails Luhn, compact', '5555555555554445'],
    ['passes Luhn, unknown issuer prefix 7', '7000 0000 0000 0005'],
    ['passes Luhn, Amex prefix with 16 digits', '3400 0000 0000 0000'],
    ['not grouped like a card', '41 11111 111 1111 11'],
    ['mixed separators', '4111 1111-1111 1111'],
    ['part of a word', 'X4111111111111111'],
  ])('%s: %s is left alone', (_why, text) => {
    const result = redact({ text: `Number ${text} here` });
    expect(result.findings).toEqual([]);
    expect(result.redacted_text).toBe(`Number ${text} here`);
  });

  test('a card inside a longer run of groups is found; the rest stays', () => {
    expect(redactText('Order 12 4111 1111 1111 1111 paid')).toBe('Order 12 [CARD] paid');
  });

  test('digits after + are an international phone number, not a card (4915112345678 passes Luhn)', () => {
    expect(foundIn('Call +4915112345678')).toEqual([['phone', '+4915112345678']]);
  });
});

describe('phone', () => {
  test.each([
    '+1 (555) 123-4567',
    '+44 20 7946 0958',
    '+44 (0)20 7946 0958',
    '+33 1 23 45 67 89',
    '+49-30-1234567',
    '+4915112345678',
    '(555) 123-4567',
    '555-123-4567',
    '555.123.4567',
    '555-0199',
    '020 7946 0958',
    '030 1234567',
    '06 12 34 56 78',
    '1 800 555 0199',
  ])('%s is a phone number', (phone) => {
    expect(foundIn(`Call ${phone} now`)).toEqual([['phone', phone]]);
  });

  test.each([
    ['an ISO date', '2026-11-21'],
    ['a European date', '21.11.2026'],
    ['a date with spaces', '2026 11 21'],
    ['a year range', '2019-2026'],
    ['a list of years', '2019 2020 2021'],
    ['an amount in thousands', '1 000 000'],
    ['an amount with dots', '12.345.678'],
    ['a decimal', '123.4567'],
    ['an IPv4 address', '192.168.100.200'],
    ['a ZIP+4 code', '12345-6789'],
    ['a plain long digit run', '12345678901'],
    ['too few digits', '123-456'],
    ['too many digits', '+1 555 123 4567 8901 2'],
    ['a + number starting with 0', '+0 555 123 4567'],
    ['single digits', '1 2 3 4 5 6 7 8'],
    ['a version', 'v1.2.3-4567890'],
    ['time', '10:30:45 12:00:00'],
  ])('%s (%s) is not a phone number', (_why, text) => {
    expect(redact({ text: `Ref ${text} end` }).findings).toEqual([]);
  });

  test('a run is judged whole: no phone number is cut out of a longer grouped number', () => {
    // 18 digits: too long for a phone, and 555 1234 / 9012 3456 inside are not taken out of it.
    expect(redact({ text: 'Tracking 1234 5678 9012 3456 78' }).findings).toEqual([]);
    expect(redact({ text: 'Ref 555-1234-555-1234-555-1234' }).findings).toEqual([]);
  });
});

describe('overlaps (email > iban > card > phone)', () => {
  test('a phone-shaped local part is part of the e-mail address', () => {
    expect(foundIn('Send to 555-123-4567@example.com')).toEqual([['email', '555-123-4567@example.com']]);
  });

  test('an Amex number is phone-shaped (15 digits in groups) but is a card', () => {
    expect(foundIn('Pay with 3782 822463 10005')).toEqual([['card', '3782 822463 10005']]);
  });

  test('a card is never redacted as a phone, even when only phones are asked for', () => {
    const result = redact({ text: 'Pay with 3782 822463 10005 or call 555-123-4567', types: ['phone'] });
    expect(result.redacted_text).toBe('Pay with 3782 822463 10005 or call [PHONE]');
    expect(result.counts).toEqual({ email: 0, phone: 1, iban: 0, card: 0 });
  });

  test('an IBAN is not cut into cards or phones, even when only those are asked for', () => {
    const text = 'IBAN DE89 3704 0044 0532 0130 00';
    expect(redact({ text, types: ['card', 'phone'] }).redacted_text).toBe(text);
    expect(redactText(text)).toBe('IBAN [IBAN]');
  });

  test('findings are sorted by start and do not overlap', () => {
    const text =
      'Call +44 20 7946 0958, mail jane@example.com, IBAN GB29 NWBK 6016 1331 9268 19, card 4111-1111-1111-1111.';
    const result = redact({ text });
    expect(result.findings.map((finding) => finding.type)).toEqual(['phone', 'email', 'iban', 'card']);
    for (const [index, finding] of result.findings.entries()) {
      expect(finding.end).toBeGreaterThan(finding.start);
      const next = result.findings[index + 1];
      if (next !== undefined) expect(next.start).toBeGreaterThanOrEqual(finding.end);
    }
    expect(result.redacted_text).toBe('Call [PHONE], mail [EMAIL], IBAN [IBAN], card [CARD].');
    expect(result.counts).toEqual({ email: 1, phone: 1, iban: 1, card: 1 });
  });
});

describe('result', () => {
  test('offsets are code points: text with accents and an emoji before a finding', () => {
    const text = 'Héllo 😀 — jane@example.com';
    const result = redact({ text });
    // UTF-16: the emoji is two units, so the address starts at unit 11 but code point 10.
    expect(text.indexOf('jane')).toBe(11);
    expect(result.findings).toEqual([{ type: 'email', start: 10, end: 26, replacement: '[EMAIL]' }]);
    expect(result.characters).toBe(26);
    expect(result.redacted_text).toBe('Héllo 😀 — [EMAIL]');
  });

  test('mask style writes * for each character of the span, keeping every offset of the text', () => {
    const text = '😀 call 555-123-4567 or mail jane@example.com';
    const result = redact({ text, style: 'mask' });
    expect(result.redacted_text).toBe('😀 call ************ or mail ****************');
    expect(Array.from(result.redacted_text)).toHaveLength(Array.from(text).length);
    expect(result.findings).toEqual([
      { type: 'phone', start: 7, end: 19, replacement: '************' },
      { type: 'email', start: 28, end: 44, replacement: '****************' },
    ]);
  });

  test('only the requested types are redacted; the others count 0', () => {
    const text = 'jane@example.com 555-123-4567 4111 1111 1111 1111 DE89370400440532013000';
    const result = redact({ text, types: ['email', 'iban'] });
    expect(result.redacted_text).toBe('[EMAIL] 555-123-4567 4111 1111 1111 1111 [IBAN]');
    expect(result.counts).toEqual({ email: 1, phone: 0, iban: 1, card: 0 });
    expect(result.findings.map((finding) => finding.type)).toEqual(['email', 'iban']);
  });

  test('a text without personal data comes back unchanged', () => {
    const text = 'Meeting on 2026-11-21 at 10:30 in room 4.12, budget 1 000 000 EUR (v2.3.1).';
    expect(redact({ text })).toEqual({
      redacted_text: text,
      findings: [],
      counts: { email: 0, phone: 0, iban: 0, card: 0 },
      characters: Array.from(text).length,
    });
  });

  test('no original value appears anywhere in the result', () => {
    const originals = [
      'jane.doe@example.com',
      '+44 20 7946 0958',
      'GB29 NWBK 6016 1331 9268 19',
      '4111 1111 1111 1111',
    ];
    const text = `Contact ${originals.join(' / ')}.`;
    for (const style of ['label', 'mask']) {
      const json = JSON.stringify(redact({ text, style }));
      for (const original of originals) {
        expect(json).not.toContain(original);
        expect(json).not.toContain(original.replace(/[^A-Za-z0-9]/g, '')); // nor its compact form
      }
      expect(json).not.toMatch(/7946|NWBK|jane/);
      expect(PiiRedactResult.safeParse(JSON.parse(json)).success).toBe(true);
    }
  });

  test(`the largest input (${PII_MAX_CHARACTERS} characters) finishes and finds everything`, () => {
    const chunk =
      'Reach jane@example.com or +1 (555) 123-4567, card 4111 1111 1111 1111, IBAN DE89370400440532013000. ';
    const copies = Math.floor(PII_MAX_CHARACTERS / chunk.length);
    const text = chunk.repeat(copies).padEnd(PII_MAX_CHARACTERS, 'x');
    const result = redact({ text });
    expect(result.characters).toBe(PII_MAX_CHARACTERS);
    expect(result.counts).toEqual({ email: copies, phone: copies, iban: copies, card: copies });
  });

  test.each([
    ['digits', '1'.repeat(PII_MAX_CHARACTERS)],
    ['spaced digits', '1 '.repeat(PII_MAX_CHARACTERS / 2)],
    ['card groups', '4111 '.repeat(PII_MAX_CHARACTERS / 5)],
    ['at signs', 'a@'.repeat(PII_MAX_CHARACTERS / 2)],
    ['one long local part', `${'a'.repeat(PII_MAX_CHARACTERS - 10)}@b.com`],
    ['IBAN-like groups', 'DE89 '.repeat(PII_MAX_CHARACTERS / 5)],
    ['parentheses', '(1)'.repeat(Math.floor(PII_MAX_CHARACTERS / 3))],
    ['dotted digits', '1.'.repeat(PII_MAX_CHARACTERS / 2)],
  ])('an adversarial input of %s finishes (no backtracking blow-up)', (_shape, text) => {
    expect(redact({ text }).characters).toBe(Array.from(text).length);
  });
});
