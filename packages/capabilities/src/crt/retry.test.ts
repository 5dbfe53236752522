import { ProviderError } from './provider-error';
import { backoffDelayMs, type RetryPolicy, withRetries } from './retry';

const policy: RetryPolicy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 2_000 };
const never = new AbortController().signal;
const retryable = (reason = 'HTTP 502', retryAfterMs?: number) =>
  new ProviderError(reason, { retryable: true, retryAfterMs });

describe('backoffDelayMs (full jitter)', () => {
  it('draws from [0, min(max, base * 2^(n-1))]', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, policy, () => 0.999_999))).toEqual([
      99, 199, 399, 799, 999,
    ]);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(2, policy, () => 0.5)).toBe(100);
  });
});

describe('withRetries', () => {
  it('retries retryable failures and returns the first success', async () => {
    const seen: number[] = [];
    const result = await withRetries(
      async (n) => {
        seen.push(n);
        if (n < 3) throw retryable();
        return 'ok';
      },
      policy,
      { deadline: Date.now() + 60_000, signal: never, random: () => 0 },
    );
    expect(result).toBe('ok');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('gives up after the last attempt with the last error, counting attempts', async () => {
    let calls = 0;
    const error = await withRetries(
      async () => {
        calls += 1;
        throw retryable(`HTTP 50${calls}`);
      },
      policy,
      { deadline: Date.now() + 60_000, signal: never, random: () => 0 },
    ).catch((err: unknown) => err);
    expect(calls).toBe(4);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error instanceof ProviderError && error.describe()).toBe('HTTP 504 (after 4 attempts)');
  });

  it('does not retry a non-retryable failure (e.g. HTTP 404)', async () => {
    let calls = 0;
    const error = await withRetries(
      async () => {
        calls += 1;
        throw new ProviderError('HTTP 404', { retryable: false });
      },
      policy,
      { deadline: Date.now() + 60_000, signal: never, random: () => 0 },
    ).catch((err: unknown) => err);
    expect(calls).toBe(1);
    expect(error instanceof ProviderError && error.describe()).toBe('HTTP 404');
  });

  it('rethrows anything that is not a ProviderError at once', async () => {
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          throw new RangeError('bug');
        },
        policy,
        { deadline: Date.now() + 60_000, signal: never },
      ),
    ).rejects.toThrow(RangeError);
    expect(calls).toBe(1);
  });

  it('gives up when a Retry-After is longer than the policy allows', async () => {
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          throw retryable('HTTP 429', 60_000);
        },
        policy,
        { deadline: Date.now() + 600_000, signal: never, random: () => 0 },
      ),
    ).rejects.toThrow('HTTP 429');
    expect(calls).toBe(1);
  });

  it('waits the longer of the backoff and a short Retry-After', async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };
    await withRetries(
      async (n) => {
        if (n === 1) throw retryable('HTTP 429', 1_500);
        if (n === 2) throw retryable('HTTP 503', 10);
        return n;
      },
      policy,
      { deadline: Date.now() + 60_000, signal: never, random: () => 0.5, sleep },
    );
    // retry 1: max(backoff 50, Retry-After 1500); retry 2: max(backoff 100, Retry-After 10)
    expect(waits).toEqual([1_500, 100]);
  });

  it('does not start a wait that would end past the deadline', async () => {
    let calls = 0;
    const now = 1_000_000;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          throw retryable('timed out after 10 ms', 500);
        },
        policy,
        { deadline: now + 100, signal: never, random: () => 0, now: () => now },
      ),
    ).rejects.toThrow('timed out');
    expect(calls).toBe(1);
  });

  it('stops waiting when the job signal aborts', async () => {
    const controller = new AbortController();
    const pending = withRetries(
      async () => {
        throw retryable('HTTP 503', 1_500);
      },
      policy,
      { deadline: Date.now() + 60_000, signal: controller.signal, random: () => 0 },
    );
    controller.abort(new Error('job cancelled'));
    await expect(pending).rejects.toThrow();
  });
});
