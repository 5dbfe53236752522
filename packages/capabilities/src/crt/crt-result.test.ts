import { CrtResult } from '@svc/contracts';
import { buildCrtResult, CRT_DISCLOSURE, type HostnameSet } from './crt-result';

const set = (count: number, overrides: Partial<HostnameSet> = {}): HostnameSet => ({
  provider: 'crt.sh',
  entries: Array.from({ length: count }, (_, i) => [
    `h${String(i).padStart(4, '0')}.example.com`,
    i % 3 === 0 ? null : Date.UTC(2024, 0, 1 + (i % 28)),
  ]),
  truncated: false,
  ...overrides,
});

describe('buildCrtResult', () => {
  it('cuts to the limit in hostname order and counts what it returns', () => {
    const result = buildCrtResult({ apex: 'example.com', include_first_seen: false, limit: 100 }, set(1234));
    expect(result.count).toBe(100);
    expect(result.observations).toHaveLength(100);
    expect(result.observations[0]).toEqual({ hostname: 'h0000.example.com' });
    expect(result.observations[99]).toEqual({ hostname: 'h0099.example.com' });
    expect(result.summary).toBe(
      'Found 1234 distinct hostnames for example.com in certificate-transparency logs (crt.sh); returning 100 (limit 100).',
    );
    expect(CrtResult.safeParse(result).success).toBe(true);
  });

  it('adds first_seen (RFC 3339 UTC) only when asked for and known', () => {
    const without = buildCrtResult({ apex: 'example.com', include_first_seen: false, limit: 3 }, set(3));
    expect(without.observations.every((o) => !('first_seen' in o))).toBe(true);
    const withTimes = buildCrtResult({ apex: 'example.com', include_first_seen: true, limit: 3 }, set(3));
    expect(withTimes.observations).toEqual([
      { hostname: 'h0000.example.com' },
      { hostname: 'h0001.example.com', first_seen: '2024-01-02T00:00:00.000Z' },
      { hostname: 'h0002.example.com', first_seen: '2024-01-03T00:00:00.000Z' },
    ]);
    expect(withTimes.include_first_seen).toBe(true);
  });

  it('carries every fixed field of the spec', () => {
    const result = buildCrtResult(
      { apex: 'example.com', include_first_seen: false, limit: 1_000 },
      set(2, { provider: 'certspotter' }),
    );
    expect(result).toEqual({
      status: 'completed',
      summary:
        'Found 2 distinct hostnames for example.com in certificate-transparency logs (certspotter); returning 2 (limit 1000).',
      apex: 'example.com',
      count: 2,
      limit: 1_000,
      include_first_seen: false,
      observations: [{ hostname: 'h0000.example.com' }, { hostname: 'h0001.example.com' }],
      provider: 'certspotter',
      live_hosts_verified: false,
      disclosure: CRT_DISCLOSURE,
    });
  });

  it('says so when nothing was found, and when the answer was truncated', () => {
    const none = buildCrtResult({ apex: 'example.com', include_first_seen: false, limit: 10 }, set(0));
    expect(none.count).toBe(0);
    expect(none.summary).toBe(
      'Found 0 distinct hostnames for example.com in certificate-transparency logs (crt.sh); returning 0 (limit 10).',
    );
    const one = buildCrtResult(
      { apex: 'example.com', include_first_seen: false, limit: 10 },
      set(1, { truncated: true }),
    );
    expect(one.summary).toBe(
      "Found 1 distinct hostname for example.com in certificate-transparency logs (crt.sh); returning 1 (limit 10). The provider's answer was truncated (response size or page limit), so more hostnames may exist.",
    );
  });

  it('refuses to build a result that breaks the contract (a bug upstream)', () => {
    const bad: HostnameSet = { provider: 'crt.sh', entries: [['not a hostname', null]], truncated: false };
    expect(() =>
      buildCrtResult({ apex: 'example.com', include_first_seen: false, limit: 10 }, bad),
    ).toThrow();
  });
});
