import { type LoopbackServer, sendJson, startLoopbackServer } from '../../test/support/loopback-server';
import { certSpotterProvider } from './certspotter';
import { crtShProvider } from './crt-sh';
import type { CtProvider, ProviderAnswer, ProviderBudget } from './ct-provider';
import { ProviderError } from './provider-error';
import { fetchWithFailover, ProvidersUnavailableError } from './providers';

const never = new AbortController().signal;

/** A provider whose behaviour a test scripts; it records the budget it was given. */
function scripted(name: string, behaviour: (budget: ProviderBudget) => Promise<ProviderAnswer>) {
  const budgets: ProviderBudget[] = [];
  const provider: CtProvider = {
    name,
    fetchHostnames: (_apex, budget) => {
      budgets.push(budget);
      return behaviour(budget);
    },
  };
  return { provider, budgets };
}
const answer = (provider: string): ProviderAnswer => ({
  provider,
  entries: [['www.example.com', 1]],
  truncated: false,
  bytes: 10,
});
const failing = (reason: string) => async (): Promise<ProviderAnswer> => {
  throw new ProviderError(reason, { retryable: true });
};

describe('fetchWithFailover', () => {
  it('uses the first provider when it answers', async () => {
    const first = scripted('crt.sh', async () => answer('crt.sh'));
    const second = scripted('certspotter', async () => answer('certspotter'));
    const result = await fetchWithFailover('example.com', [first.provider, second.provider], {
      deadlineMs: 45_000,
      signal: never,
    });
    expect(result.provider).toBe('crt.sh');
    expect(second.budgets).toHaveLength(0);
  });

  it('splits the deadline: each remaining provider gets an equal share of what is left', async () => {
    let clock = 1_000_000;
    const first = scripted('crt.sh', async () => {
      clock += 10_000; // it used 10 s of its 22.5 s share, then failed
      throw new ProviderError('HTTP 502', { retryable: true });
    });
    const second = scripted('certspotter', async () => answer('certspotter'));
    const result = await fetchWithFailover('example.com', [first.provider, second.provider], {
      deadlineMs: 45_000,
      signal: never,
      now: () => clock,
    });
    expect(result.provider).toBe('certspotter');
    expect(first.budgets[0]?.deadline).toBe(1_000_000 + 22_500);
    // What the first left unused goes to the second: all of the remaining 35 s.
    expect(second.budgets[0]?.deadline).toBe(1_000_000 + 45_000);
  });

  it('names every provider and its reason when all fail', async () => {
    const first = scripted('crt.sh', failing('HTTP 502'));
    const second = scripted('certspotter', failing('timed out after 15000 ms'));
    const error = await fetchWithFailover('example.com', [first.provider, second.provider], {
      deadlineMs: 45_000,
      signal: never,
    }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProvidersUnavailableError);
    expect(error instanceof Error && error.message).toBe(
      'crt providers unavailable: crt.sh: HTTP 502; certspotter: timed out after 15000 ms',
    );
  });

  it('rethrows an error that is not a provider failure (a bug) without trying the next', async () => {
    const first = scripted('crt.sh', async () => {
      throw new TypeError('bug');
    });
    const second = scripted('certspotter', async () => answer('certspotter'));
    await expect(
      fetchWithFailover('example.com', [first.provider, second.provider], {
        deadlineMs: 45_000,
        signal: never,
      }),
    ).rejects.toThrow(TypeError);
    expect(second.budgets).toHaveLength(0);
  });

  it('skips a provider when the first one used up the whole deadline', async () => {
    let clock = 0;
    const first = scripted('crt.sh', async () => {
      clock += 50_000;
      throw new ProviderError('timed out after 15000 ms', { retryable: true });
    });
    const second = scripted('certspotter', async () => answer('certspotter'));
    const error = await fetchWithFailover('example.com', [first.provider, second.provider], {
      deadlineMs: 45_000,
      signal: never,
      now: () => clock,
    }).catch((err: unknown) => err);
    expect(error instanceof Error && error.message).toBe(
      'crt providers unavailable: crt.sh: timed out after 15000 ms; certspotter: not tried: no time left in the run deadline',
    );
  });
});

describe('failover over HTTP (loopback providers)', () => {
  let crtSh: LoopbackServer;
  let certSpotter: LoopbackServer;
  afterEach(async () => {
    await crtSh.close();
    await certSpotter.close();
  });
  const retry = { attempts: 2, baseDelayMs: 10, maxDelayMs: 100, maxRetryAfterMs: 1_000 };

  it('falls back to Cert Spotter when crt.sh keeps answering 502', async () => {
    crtSh = await startLoopbackServer((_req, res) => sendJson(res, { error: 'bad gateway' }, 502));
    certSpotter = await startLoopbackServer((req, res) =>
      new URL(req.url ?? '/', 'http://x').searchParams.has('after')
        ? sendJson(res, [])
        : sendJson(res, [{ id: '1', dns_names: ['www.example.com'], not_before: '2024-01-01T00:00:00Z' }]),
    );
    const providers = [
      crtShProvider({ baseUrl: crtSh.url, timeoutMs: 5_000, maxBytes: 1 << 20, retry, random: () => 0 }),
      certSpotterProvider({
        baseUrl: certSpotter.url,
        timeoutMs: 5_000,
        maxBytes: 1 << 20,
        retry,
        random: () => 0,
      }),
    ];
    const result = await fetchWithFailover('example.com', providers, { deadlineMs: 20_000, signal: never });
    expect(result.provider).toBe('certspotter');
    expect(result.entries).toEqual([['www.example.com', Date.parse('2024-01-01T00:00:00Z')]]);
    expect(crtSh.requests).toHaveLength(2);
  });

  it('reports both when crt.sh hangs and Cert Spotter refuses', async () => {
    crtSh = await startLoopbackServer(() => {
      // never answers
    });
    certSpotter = await startLoopbackServer((_req, res) => sendJson(res, { code: 'forbidden' }, 403));
    const providers = [
      crtShProvider({ baseUrl: crtSh.url, timeoutMs: 100, maxBytes: 1 << 20, retry, random: () => 0 }),
      certSpotterProvider({
        baseUrl: certSpotter.url,
        timeoutMs: 100,
        maxBytes: 1 << 20,
        retry,
        random: () => 0,
      }),
    ];
    const error = await fetchWithFailover('example.com', providers, {
      deadlineMs: 20_000,
      signal: never,
    }).catch((err: unknown) => err);
    expect(error instanceof Error && error.message).toBe(
      'crt providers unavailable: crt.sh: timed out after 100 ms (after 2 attempts); certspotter: HTTP 403',
    );
  });
});
