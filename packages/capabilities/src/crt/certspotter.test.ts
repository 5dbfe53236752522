import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type LoopbackServer, sendJson, startLoopbackServer } from '../../test/support/loopback-server';
import { CERTSPOTTER_MAX_PAGES, type CertSpotterSettings, certSpotterProvider } from './certspotter';
import { ProviderError } from './provider-error';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(path.join(__dirname, '../../test/fixtures', name), 'utf8'));
const PAGE_1 = fixture('certspotter-example-com-page1.json');
const PAGE_2 = fixture('certspotter-example-com-page2.json');
const never = new AbortController().signal;
const budget = () => ({ deadline: Date.now() + 30_000, signal: never });

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function settings(baseUrl: string, overrides: Partial<CertSpotterSettings> = {}): CertSpotterSettings {
  return {
    baseUrl,
    timeoutMs: 5_000,
    maxBytes: 64 * 1024 * 1024,
    retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 },
    random: () => 0,
    ...overrides,
  };
}

/** Serves the two recorded pages, then an empty one, by the `after` cursor. */
function pagedAnswer(failFirstPage2 = false) {
  let page2Failures = failFirstPage2 ? 1 : 0;
  return startLoopbackServer((req, res) => {
    const after = new URL(req.url ?? '/', 'http://x').searchParams.get('after');
    if (after === null) return sendJson(res, PAGE_1);
    if (after === '4203841207') {
      if (page2Failures > 0) {
        page2Failures -= 1;
        return sendJson(res, { error: 'busy' }, 503);
      }
      return sendJson(res, PAGE_2);
    }
    if (after === '4203842001') return sendJson(res, []);
    sendJson(res, { error: `unexpected cursor ${after}` }, 400);
  });
}

describe('Cert Spotter provider', () => {
  it('walks the pages with `after` until an empty page, with first_seen from not_before', async () => {
    server = await pagedAnswer();
    const answer = await certSpotterProvider(
      settings(`${server.url}/certspotter`, { token: 'cs-secret-token' }),
    ).fetchHostnames('example.com', budget());
    expect(answer.provider).toBe('certspotter');
    expect(answer.truncated).toBe(false);
    expect(
      answer.entries.map(([name, ms]) => [name, ms === null ? null : new Date(ms).toISOString()]),
    ).toEqual([
      // `*.Example.com` on the 2023-01 certificate is earlier than the 2024-03 one naming example.com
      ['example.com', '2023-01-15T00:00:00.000Z'],
      ['mail.example.com', '2023-01-15T00:00:00.000Z'],
      ['shop.example.com', '2022-12-01T00:00:00.000Z'],
      ['www.example.com', '2022-12-01T00:00:00.000Z'],
    ]);
    expect(server.requests.map((r) => r.query.get('after'))).toEqual([null, '4203841207', '4203842001']);
    for (const request of server.requests) {
      expect(request.path).toBe('/certspotter/v1/issuances');
      expect(request.query.get('domain')).toBe('example.com');
      expect(request.query.get('include_subdomains')).toBe('true');
      expect(request.query.get('expand')).toBe('dns_names');
      expect(request.headers.authorization).toBe('Bearer cs-secret-token');
    }
  });

  it('sends no Authorization header without a token', async () => {
    server = await pagedAnswer();
    await certSpotterProvider(settings(server.url)).fetchHostnames('example.com', budget());
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined, undefined]);
  });

  it('retries a failed page and goes on from the same cursor', async () => {
    server = await pagedAnswer(true);
    const answer = await certSpotterProvider(settings(server.url)).fetchHostnames('example.com', budget());
    expect(answer.entries).toHaveLength(4);
    expect(server.requests.map((r) => r.query.get('after'))).toEqual([
      null,
      '4203841207',
      '4203841207',
      '4203842001',
    ]);
  });

  it('stops at the page cap and flags the answer truncated', async () => {
    server = await startLoopbackServer((req, res) => {
      const after = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('after') ?? '0');
      sendJson(res, [
        {
          id: String(after + 1),
          dns_names: [`h${after + 1}.example.com`],
          not_before: '2024-01-01T00:00:00Z',
        },
      ]);
    });
    const answer = await certSpotterProvider(settings(server.url)).fetchHostnames('example.com', budget());
    expect(answer.truncated).toBe(true);
    expect(answer.entries).toHaveLength(CERTSPOTTER_MAX_PAGES);
    expect(server.requests).toHaveLength(CERTSPOTTER_MAX_PAGES);
  });

  it('fails a page that repeats the cursor instead of looping forever', async () => {
    server = await startLoopbackServer((_req, res) =>
      sendJson(res, [{ id: '7', dns_names: ['a.example.com'] }]),
    );
    const error = await certSpotterProvider(settings(server.url))
      .fetchHostnames('example.com', budget())
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error instanceof ProviderError && error.reason).toBe('page without a usable issuance id');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 401 (bad token)', async () => {
    server = await startLoopbackServer((_req, res) => sendJson(res, { code: 'unauthorized' }, 401));
    const error = await certSpotterProvider(settings(server.url, { token: 'wrong' }))
      .fetchHostnames('example.com', budget())
      .catch((err: unknown) => err);
    expect(error instanceof ProviderError && error.describe()).toBe('HTTP 401');
    // The token is in the header only: never in what we would store or show.
    expect(error instanceof ProviderError && error.message).not.toContain('wrong');
    expect(server.requests).toHaveLength(1);
  });
});
