import { HostnameCollector, normaliseName } from './hostname-collector';

describe('normaliseName', () => {
  it.each([
    ['www.example.com', 'www.example.com'],
    ['  WWW.Example.COM\r', 'www.example.com'],
    ['*.example.com', 'example.com'],
    ['*.api.example.com', 'api.example.com'],
    ['example.com', 'example.com'],
    ['xn--bcher-kva.example.com', 'xn--bcher-kva.example.com'],
    ['a-b.c-d.example.com', 'a-b.c-d.example.com'],
  ])('keeps %j as %j', (raw, expected) => {
    expect(normaliseName(raw, 'example.com')).toBe(expected);
  });

  it.each([
    ['hostmaster@example.com', 'an e-mail address'],
    ['notexample.com', 'a suffix trap: not under example.com'],
    ['api.notexample.com', 'a name under another domain that ends the same'],
    ['example.com.evil.net', 'the apex as a prefix of another domain'],
    ['com', 'the public suffix above the apex'],
    ['_acme-challenge.example.com', 'an underscore label'],
    ['-dash.example.com', 'a label starting with a hyphen'],
    ['dash-.example.com', 'a label ending with a hyphen'],
    ['www.example.com.', 'a trailing dot'],
    ['a..example.com', 'an empty label'],
    ['*.*.example.com', 'a second wildcard'],
    ['foo.*.example.com', 'an inner wildcard'],
    ['bücher.example.com', 'non-ASCII'],
    ['192.0.2.1', 'an IP address'],
    ['www example.com', 'a space'],
    ['', 'nothing'],
    [`${'a'.repeat(64)}.example.com`, 'a label of 64 characters'],
    [`${'abcdefghi.'.repeat(25)}example.com`, 'a name longer than 253 characters'],
  ])('drops %j (%s)', (raw) => {
    expect(normaliseName(raw, 'example.com')).toBeUndefined();
  });

  it('keeps a label of 63 characters', () => {
    const name = `${'a'.repeat(63)}.example.com`;
    expect(normaliseName(name, 'example.com')).toBe(name);
  });
});

describe('HostnameCollector', () => {
  it('splits newline-separated fields, de-duplicates and keeps the earliest time per hostname', () => {
    const collector = new HostnameCollector('Example.com');
    collector.addNames('www.example.com\nexample.com', 2_000);
    collector.addNames('WWW.EXAMPLE.COM\n*.example.com\nmail.example.com', 1_000);
    collector.addNames('mail.example.com', 3_000);
    collector.addNames('other.org\nuser@example.com', 500);
    expect(collector.size).toBe(3);
    expect(collector.sortedEntries()).toEqual([
      ['example.com', 1_000],
      ['mail.example.com', 1_000],
      ['www.example.com', 1_000],
    ]);
  });

  it('keeps a hostname without a time as null until an entry with a time names it', () => {
    const collector = new HostnameCollector('example.com');
    collector.addNames('a.example.com\nb.example.com', undefined);
    collector.addNames('b.example.com', 42);
    collector.addNames('b.example.com', undefined);
    expect(collector.sortedEntries()).toEqual([
      ['a.example.com', null],
      ['b.example.com', 42],
    ]);
  });

  it('sorts in code-unit order (digits and hyphens before letters)', () => {
    const collector = new HostnameCollector('example.com');
    collector.addNames('b.example.com\na-1.example.com\n1.example.com\na.example.com\nexample.com', 1);
    expect(collector.sortedEntries().map(([name]) => name)).toEqual([
      '1.example.com',
      'a-1.example.com',
      'a.example.com',
      'b.example.com',
      'example.com',
    ]);
  });

  it('adding the same entries again (a retried request) changes nothing', () => {
    const collector = new HostnameCollector('example.com');
    collector.addNames('a.example.com\nb.example.com', 10);
    const first = collector.sortedEntries();
    collector.addNames('a.example.com\nb.example.com', 10);
    expect(collector.sortedEntries()).toEqual(first);
  });
});
