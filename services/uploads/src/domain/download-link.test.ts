import { createHmac } from 'node:crypto';
import { ForbiddenError } from '@svc/errors';
import { downloadUrl, linkSignature, signLink, verifyLink } from './download-link';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const ARTIFACT = '6f1c1a52-8d61-4bb0-9a53-2f0e8f3c1a11';
const CLIENT = '0b4c9f1e-3a5d-4e07-8d2b-9c6a1f2e3d4c';
const OTHER_CLIENT = '1c5d0a2f-4b6e-4f18-9e3c-0d7b2a3f4e5d';
const NOW = new Date('2026-11-21T12:00:00.000Z');

function rejection(run: () => void): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ForbiddenError);
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error('expected a 403');
}

describe('download links', () => {
  it('sign "<artifact>.<client>.<expires>" with HMAC-SHA256, base64url without padding (43 chars)', () => {
    const link = signLink(SECRET, ARTIFACT, CLIENT, NOW, 900_000);
    expect(link.expires).toBe(NOW.getTime() / 1000 + 900);
    const expected = createHmac('sha256', SECRET)
      .update(`${ARTIFACT}.${CLIENT}.${link.expires}`)
      .digest('base64url');
    expect(link.signature).toBe(expected);
    expect(link.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('build the public URL under the base', () => {
    const link = {
      expires: 1_800_000_000,
      signature: linkSignature(SECRET, ARTIFACT, CLIENT, 1_800_000_000),
    };
    const url = new URL(downloadUrl('https://api.example.com/prefix/', ARTIFACT, link));
    expect(url.pathname).toBe(`/prefix/api/artifacts/${ARTIFACT}/download`);
    expect(url.searchParams.get('expires')).toBe('1800000000');
    expect(url.searchParams.get('signature')).toBe(link.signature);
  });

  it('verify for the same artifact and client until they expire', () => {
    const link = signLink(SECRET, ARTIFACT, CLIENT, NOW, 900_000);
    expect(() => verifyLink(SECRET, ARTIFACT, CLIENT, link, NOW)).not.toThrow();
    expect(() => verifyLink(SECRET, ARTIFACT, CLIENT, link, new Date(link.expires * 1000))).not.toThrow();
  });

  it('are refused for another client, artifact, secret or a tampered expiry or signature', () => {
    const link = signLink(SECRET, ARTIFACT, CLIENT, NOW, 900_000);
    const notValid = 'download link is not valid for this client';
    expect(rejection(() => verifyLink(SECRET, ARTIFACT, OTHER_CLIENT, link, NOW))).toBe(notValid);
    expect(rejection(() => verifyLink(SECRET, CLIENT, CLIENT, link, NOW))).toBe(notValid);
    expect(rejection(() => verifyLink(`${SECRET}x`, ARTIFACT, CLIENT, link, NOW))).toBe(notValid);
    expect(
      rejection(() => verifyLink(SECRET, ARTIFACT, CLIENT, { ...link, expires: link.expires + 3600 }, NOW)),
    ).toBe(notValid);
    const flipped = `${link.signature.slice(0, -1)}${link.signature.endsWith('A') ? 'B' : 'A'}`;
    expect(rejection(() => verifyLink(SECRET, ARTIFACT, CLIENT, { ...link, signature: flipped }, NOW))).toBe(
      notValid,
    );
    expect(rejection(() => verifyLink(SECRET, ARTIFACT, CLIENT, { ...link, signature: 'short' }, NOW))).toBe(
      notValid,
    );
  });

  it('are refused once expired, naming when', () => {
    const link = signLink(SECRET, ARTIFACT, CLIENT, NOW, 1_000);
    const later = new Date(NOW.getTime() + 2_000);
    expect(rejection(() => verifyLink(SECRET, ARTIFACT, CLIENT, link, later))).toBe(
      'download link expired at 2026-11-21T12:00:01.000Z; list the artifacts again for a fresh link',
    );
  });
});
