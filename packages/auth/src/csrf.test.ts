import { createHmac, randomBytes } from 'node:crypto';
import { csrfTokenFor, csrfTokenMatches } from './csrf';

const session = randomBytes(32).toString('base64url');

describe('csrfTokenFor', () => {
  it('is base64url(HMAC-SHA256(key = session token, "csrf")), different per session', () => {
    const expected = createHmac('sha256', session).update('csrf').digest('base64url');
    expect(csrfTokenFor(session)).toBe(expected);
    expect(csrfTokenFor(randomBytes(32).toString('base64url'))).not.toBe(expected);
    expect(csrfTokenFor(session)).not.toContain(session);
  });
});

describe('csrfTokenMatches', () => {
  it('accepts only the session own token', () => {
    const token = csrfTokenFor(session);
    expect(csrfTokenMatches(session, token)).toBe(true);
    expect(csrfTokenMatches(session, csrfTokenFor(randomBytes(32).toString('base64url')))).toBe(false);
    expect(csrfTokenMatches(session, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
  });

  it('refuses missing, non-string, empty, shorter and longer values without throwing', () => {
    const token = csrfTokenFor(session);
    for (const presented of [undefined, null, 42, ['x'], '', token.slice(1), `${token}x`, 'x'.repeat(5000)]) {
      expect(csrfTokenMatches(session, presented)).toBe(false);
    }
  });
});
