import { createHmac, timingSafeEqual } from 'node:crypto';

// The dashboard's CSRF synchronizer token is derived from the session token, so nothing more is
// stored: csrf = base64url(HMAC-SHA256(key = session token, "csrf")). A page can only know it by
// holding the session cookie's value, which a cross-site page cannot read (HttpOnly, SameSite=Strict).

/** The CSRF token of a session (43 characters). */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('csrf').digest('base64url');
}

/**
 * Whether a presented value (form field or header; anything, as parsed) is the session's CSRF token.
 * Compared in constant time over the digests, so neither length nor content leaks through timing.
 */
export function csrfTokenMatches(sessionToken: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 200) return false;
  const expected = Buffer.from(csrfTokenFor(sessionToken), 'utf8');
  const given = Buffer.from(presented, 'utf8');
  if (given.length !== expected.length) {
    // Still do one comparison's work; the answer is no.
    timingSafeEqual(expected, expected);
    return false;
  }
  return timingSafeEqual(expected, given);
}
