import { redactUrl, withDatabase } from '../src/index';
import { isLoopbackHost, scrubSecret } from '../src/urls';

describe('url helpers', () => {
  it('redacts passwords and survives garbage', () => {
    expect(redactUrl('postgres://app:s3cret@db:5432/x')).toBe('postgres://app:***@db:5432/x');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactUrl('postgres://app:s3cret@')).not.toContain('s3cret');
    expect(redactUrl('::not a url::')).toBe('<unparseable URL>');
  });

  it('scrubs a secret out of driver messages', () => {
    expect(scrubSecret('auth failed for hunter2 at hunter2', 'hunter2')).toBe('auth failed for *** at ***');
    expect(scrubSecret('short', '')).toBe('short');
  });

  it('swaps the database of a URL, keeping credentials and query', () => {
    expect(withDatabase('postgres://u:p@h:5432/a?sslmode=disable', 'b_1')).toBe(
      'postgres://u:p@h:5432/b_1?sslmode=disable',
    );
  });

  it('knows loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.0.0.53', 'localhost', '::1', '[::1]'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['10.0.0.1', 'redis', 'example.com']) expect(isLoopbackHost(host)).toBe(false);
  });
});
