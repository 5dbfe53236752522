import { maskEmail, normalizeEmail } from './email';

const SHAPE = 'must be an e-mail address of the form name@domain.tld';
// A well-formed address one character over RFC 5321's limit.
const LONG_255 = `jane@${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(63)}.com`;

describe('email', () => {
  it.each([
    ['jane.doe@example.com', 'jane.doe@example.com'],
    ['Jane.Doe@Example.COM', 'Jane.Doe@example.com'], // the local part is case-sensitive (RFC 5321), the domain is not
    ["o'brien+vault@mail.example.org", "o'brien+vault@mail.example.org"],
    ['info@MÜLLER.example', 'info@müller.example'],
    ['info@xn--mller-kva.example', 'info@müller.example'],
    ['a@b.co', 'a@b.co'],
  ])('accepts %j as %s', (input, stored) => {
    expect(normalizeEmail(input)).toEqual({ ok: true, value: stored });
  });

  it.each([
    ['no @', 'jane.example.com', SHAPE],
    ['no local part', '@example.com', SHAPE],
    ['no domain', 'jane@', SHAPE],
    ['no top-level domain', 'jane@localhost', SHAPE],
    ['a one-letter top-level domain', 'jane@example.c', SHAPE],
    ['two @', 'jane@doe@example.com', SHAPE],
    ['a space', 'jane doe@example.com', SHAPE],
    ['a double dot', 'jane..doe@example.com', SHAPE],
    ['a leading dot', '.jane@example.com', SHAPE],
    ['a hyphen starting a label', 'jane@-example.com', SHAPE],
    ['an underscore in the domain', 'jane@ex_ample.com', SHAPE],
    ['an IP address', 'jane@192.168.0.1', SHAPE],
    ['an IP literal', 'jane@[192.168.0.1]', SHAPE],
    [
      'a local part of 65 characters',
      `${'a'.repeat(65)}@example.com`,
      'must have at most 64 characters before the @',
    ],
    ['255 characters', LONG_255, 'must be at most 254 characters'],
  ])('refuses %s', (_what, input, rule) => {
    expect(normalizeEmail(input)).toEqual({ ok: false, rule });
  });

  it('has a 255-character example that is otherwise well-formed', () => {
    expect(LONG_255).toHaveLength(255);
    expect(normalizeEmail(LONG_255.slice(1)).ok).toBe(true);
  });

  it('masks the local part to its first character and shows the domain', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j***@example.com');
    expect(maskEmail('Jane.Doe@example.com')).toBe('J***@example.com');
    expect(maskEmail('j@example.com')).toBe('***@example.com');
  });
});
