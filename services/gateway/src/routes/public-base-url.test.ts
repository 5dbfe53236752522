import { BadRequestError } from '@svc/errors';
import { createPublicBaseUrl } from './public-base-url';

describe('createPublicBaseUrl', () => {
  it('uses PUBLIC_BASE_URL when set, whatever the request says', () => {
    const base = createPublicBaseUrl('https://api.example.com/svc');
    expect(base({ protocol: 'http', host: 'evil.example' })).toBe('https://api.example.com/svc');
  });

  it.each([
    ['http', '127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['https', 'api.example.com', 'https://api.example.com'],
    ['http', '[::1]:8080', 'http://[::1]:8080'],
  ])('derives %s://%s from the request when unset', (protocol, host, expected) => {
    expect(createPublicBaseUrl(undefined)({ protocol, host })).toBe(expected);
  });

  it.each([
    ['http', 'example.com/path'],
    ['http', 'user@example.com'],
    ['http', 'example.com?x=1'],
    ['http', 'exa mple.com'],
    ['http', ''],
    ['javascript', 'example.com'],
  ])('refuses %s://%s: a link built from it would be broken or point elsewhere', (protocol, host) => {
    expect(() => createPublicBaseUrl(undefined)({ protocol, host })).toThrow(BadRequestError);
  });
});
