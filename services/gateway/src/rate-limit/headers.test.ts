import { BudgetPolicies, defaultPolicy } from './budgets';
import { formatPolicyHeader, formatRateLimitHeader, rateLimitedMessage, secondsUntil } from './headers';

const reads = { budget: 'reads', quota: 200, windowSeconds: 2, scope: 'key' } as const;
const quotes = { budget: 'quotes', quota: 1, windowSeconds: 1, scope: 'address' } as const;

describe('RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, structured-field lists)', () => {
  it('formats one policy and its state', () => {
    const state = { policy: reads, remaining: 153, resetMs: 1_200 };
    expect(formatPolicyHeader([state])).toBe('"reads";q=200;w=2');
    expect(formatRateLimitHeader([state])).toBe('"reads";r=153;t=2');
  });

  it('lists several budgets, rounds t up to whole seconds and never shows a negative remainder', () => {
    const states = [
      { policy: reads, remaining: 0, resetMs: 1 },
      { policy: quotes, remaining: -3, resetMs: 0 },
    ];
    expect(formatPolicyHeader(states)).toBe('"reads";q=200;w=2, "quotes";q=1;w=1');
    expect(formatRateLimitHeader(states)).toBe('"reads";r=0;t=1, "quotes";r=0;t=0');
    expect(secondsUntil(2_000)).toBe(2);
    expect(secondsUntil(2_001)).toBe(3);
  });

  it('says which budget, its limit, whose, and when to retry', () => {
    expect(rateLimitedMessage({ policy: reads, remaining: 0, resetMs: 1_500 })).toBe(
      'rate limit exceeded: the reads budget allows 200 requests per 2 s for this API key; retry in 2 s',
    );
    expect(rateLimitedMessage({ policy: quotes, remaining: 0, resetMs: 0 })).toBe(
      'rate limit exceeded: the quotes budget allows 1 request per second for this address (send an API key for more); retry in 1 s',
    );
  });
});

describe('budgets', () => {
  it('defaults: 100 reads per second per key with a burst of 200, tighter for quotes, runs and addresses', () => {
    expect(defaultPolicy('reads', 'key', 1)).toEqual({
      budget: 'reads',
      quota: 200,
      windowSeconds: 2,
      scope: 'key',
    });
    expect(defaultPolicy('quotes', 'key', 1)).toMatchObject({ quota: 20, windowSeconds: 2 });
    expect(defaultPolicy('runs', 'key', 1)).toMatchObject({ quota: 10, windowSeconds: 2 });
    expect(defaultPolicy('reads', 'address', 1)).toMatchObject({ quota: 40, windowSeconds: 2 });
  });

  it('RATE_LIMIT_MULTIPLIER scales every default quota (never below 1), not the window', () => {
    expect(defaultPolicy('reads', 'key', 1_000)).toMatchObject({ quota: 200_000, windowSeconds: 2 });
    expect(defaultPolicy('reads', 'key', 0.05)).toMatchObject({ quota: 10, windowSeconds: 2 });
    expect(defaultPolicy('quotes', 'address', 0.01)).toMatchObject({ quota: 1, windowSeconds: 2 });
  });

  it("applies a client's valid override to its keys only, unscaled, and ignores a malformed one", () => {
    const policies = new BudgetPolicies(1_000);
    const key = { kind: 'key', keyId: 'abc' } as const;
    const address = { kind: 'address', ip: '127.0.0.1' } as const;
    const override = { quotes: { quota: 5, window_seconds: 4 } };
    expect(policies.policy('quotes', key, override)).toEqual({
      budget: 'quotes',
      quota: 5,
      windowSeconds: 4,
      scope: 'key',
    });
    expect(policies.policy('reads', key, override)).toMatchObject({ quota: 200_000 });
    expect(policies.policy('quotes', address, override)).toMatchObject({ quota: 4_000, scope: 'address' });
    for (const bad of [
      { quotes: { quota: 0, window_seconds: 4 } },
      { quotes: 'x' },
      [],
      'x',
      null,
      undefined,
    ]) {
      expect(policies.policy('quotes', key, bad)).toMatchObject({ quota: 20_000 });
    }
  });
});
