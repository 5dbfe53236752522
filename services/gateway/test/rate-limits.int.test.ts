import { randomUUID } from 'node:crypto';
import { ErrorResponse } from '@svc/contracts';
import {
  type FetchResult,
  SHARED_STACK_BEFORE_ALL_MS,
  type SharedTestStack,
  sharedTestStack,
  sleep,
  type TestApiKey,
} from '@svc/testkit';
import { runAdminCli } from './support/admin-cli';
import { type SecondGateway, startSecondGateway } from './support/second-gateway';

// Rate limits (issue 13, finding 5) against real processes: the jest run's shared platform
// (sharedTestStack) and one more gateway process of this suite's own (`limited`) on another port
// with the same database and BUS_PREFIX share one Redis, so their budgets are one. The operator's
// overrides go through the real admin CLI. `limited` runs the realistic figures, RATE_LIMIT_MULTIPLIER
// 0.05 (key reads 10 per 2 s, address reads 2 per 2 s) and TRUST_PROXY 1, so every check of a
// default budget or of an address asks it; the shared gateway keeps the platform's multiplier (budgets
// scaled out of the other suites' way), so the checks that ask it, or both, use operator overrides,
// whose figures no multiplier scales. Overrides have long windows, so no count depends on how fast
// the machine is. Every client and address is this suite's own (nothing else on the shared platform
// sets X-Forwarded-For or these clients' overrides).

jest.setTimeout(180_000);

// ms a gateway serves a verified key (with its client's overrides) from memory: an override is in
// force on every gateway within it (the platform's default, stated so the wait below can rely on it).
const KEY_CACHE_TTL_MS = 1_000;
const ENV = {
  RATE_LIMIT_MULTIPLIER: '0.05',
  TRUST_PROXY: '1',
  API_KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS),
};

let stack: SharedTestStack;
let limited: SecondGateway;

beforeAll(async () => {
  stack = await sharedTestStack();
  limited = await startSecondGateway(stack, { ...ENV, UPLOADS_URL: 'http://127.0.0.1:9' });
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  await limited?.stop();
  await stack?.close();
});

/** A client name no other suite (or run) of the shared database has. */
function uniqueClientName(label: string): string {
  return `rl-${label}-${randomUUID().slice(0, 8)}`;
}

/** `pnpm admin …` against the platform's database; its one line of JSON. */
async function admin(args: string[]): Promise<unknown> {
  const result = await runAdminCli(args, stack.databaseUrl);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(result.stdout);
}

/** A request to one of the two gateways. */
async function call(
  base: string,
  route: string,
  init: RequestInit & { apiKey?: string } = {},
): Promise<FetchResult> {
  const headers = new Headers(init.headers);
  if (init.apiKey !== undefined) headers.set('authorization', `Bearer ${init.apiKey}`);
  const response = await fetch(`${base}${route}`, { ...init, headers, signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

function remainingOf(result: FetchResult, budget: string): number | undefined {
  const match = new RegExp(`"${budget}";r=(\\d+);t=(\\d+)`).exec(result.headers.get('ratelimit') ?? '');
  return match ? Number(match[1]) : undefined;
}

describe('rate limits across two gateway processes', () => {
  let reader: TestApiKey;
  let other: TestApiKey;
  const clientName = uniqueClientName('reader');

  beforeAll(async () => {
    reader = await stack.createApiKey({ clientName, scopes: ['billing:read'], balanceUsd: '1' });
    other = await stack.createApiKey({ scopes: ['billing:read'], balanceUsd: '1' });
  });

  it('states the default policy scaled by RATE_LIMIT_MULTIPLIER, and exempts the probes', async () => {
    const first = await call(limited.url, '/api/account/balance', { apiKey: reader.apiKey });
    expect(first.status).toBe(200);
    // Key reads: 200 per 2 s by default, × 0.05.
    expect(first.headers.get('ratelimit-policy')).toBe('"reads";q=10;w=2');
    expect(first.headers.get('ratelimit')).toMatch(/^"reads";r=\d+;t=[0-2]$/);
    const health = await call(limited.url, '/healthz');
    expect(health.status).toBe(200);
    expect(health.headers.get('ratelimit')).toBeNull();
  });

  it('shares one budget between the processes; the operator override takes effect; 429 in our shape', async () => {
    // 6 requests per 600 s: no window ends during the test, so every count below is exact.
    const set = await admin([
      'set-rate-limit',
      '--client',
      clientName,
      '--budget',
      'reads',
      '--per-second',
      '0.01',
      '--burst',
      '6',
    ]);
    expect(set).toEqual({
      client_id: reader.clientId,
      rate_limits: { reads: { quota: 6, window_seconds: 600 } },
    });
    // `limited` verified this key in the test before: its cached copy, with no override, lives for
    // up to the cache TTL (once, a loaded run asked within it and was answered the default policy).
    await sleep(KEY_CACHE_TTL_MS + 100);

    // `limited` first, as it answered the test before; then the shared gateway, turn about. The
    // override is the client's own, so both processes state it whatever their multipliers.
    const gateways = [limited.url, stack.gatewayUrl];
    const served: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const result = await call(gateways[i % 2] ?? limited.url, '/api/account/balance', {
        apiKey: reader.apiKey,
      });
      expect(result.status).toBe(200);
      expect(result.headers.get('ratelimit-policy')).toBe('"reads";q=6;w=600');
      served.push(remainingOf(result, 'reads') ?? -1);
    }
    // One counter for both processes: what one spends, the other sees.
    expect(served).toEqual([5, 4, 3, 2, 1, 0]);

    for (const gateway of gateways) {
      const refused = await call(gateway, '/api/account/balance', { apiKey: reader.apiKey });
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(refused.headers.get('ratelimit-policy')).toBe('"reads";q=6;w=600');
      expect(refused.headers.get('ratelimit')).toBe(`"reads";r=0;t=${retryAfter}`);
      expect(ErrorResponse.parse(refused.json)).toEqual({
        ok: false,
        error: `rate limit exceeded: the reads budget allows 6 requests per 600 s for this API key; retry in ${retryAfter} s`,
      });
    }

    // Another client's key has its own budget (the default of `limited`).
    const isolated = await call(limited.url, '/api/account/balance', { apiKey: other.apiKey });
    expect(isolated.status).toBe(200);
    expect(isolated.headers.get('ratelimit-policy')).toBe('"reads";q=10;w=2');

    // --reset: the default (10 per 2 s) applies again.
    expect(await admin(['set-rate-limit', '--client', clientName, '--budget', 'reads', '--reset'])).toEqual({
      client_id: reader.clientId,
      rate_limits: {},
    });
    // Once the cached key (with the override) has expired.
    await sleep(KEY_CACHE_TTL_MS + 100);
    const back = await call(limited.url, '/api/account/balance', { apiKey: reader.apiKey });
    expect(back.status).toBe(200);
    expect(back.headers.get('ratelimit-policy')).toBe('"reads";q=10;w=2');
  });
});

describe('MCP tool calls are counted per call', () => {
  it('a batch of 12 svc_tool_quote calls spends 12 quote points: 5 run, 7 get the 429 message', async () => {
    const clientName = uniqueClientName('mcp');
    const key = await stack.createApiKey({ clientName, scopes: ['capabilities:quote'] });
    await admin([
      'set-rate-limit',
      '--client',
      clientName,
      '--budget',
      'quotes',
      '--per-second',
      '0.01',
      '--burst',
      '5',
    ]);

    // No `input`: each call that runs answers the REST 422; the budget is spent before that.
    const batch = Array.from({ length: 12 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'svc_tool_quote', arguments: { slug: 'pii-redact' } },
    }));
    const response = await fetch(`${limited.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(batch),
      signal: AbortSignal.timeout(30_000),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-policy')).toBe('"quotes";q=5;w=500');
    expect(response.headers.get('ratelimit')).toMatch(/^"quotes";r=0;t=\d+$/);
    const text = await response.text();
    const messages = (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => JSON.parse(line.slice('data: '.length)))
      : [JSON.parse(text)].flat();
    expect(messages).toHaveLength(12);
    const texts: string[] = messages.map((message) => {
      expect(message.result.isError).toBe(true);
      return message.result.content[0].text;
    });
    const refused = texts.filter((t) =>
      t.startsWith('rate limit exceeded: the quotes budget allows 5 requests per 500 s'),
    );
    expect(refused).toHaveLength(7);
    expect(texts.filter((t) => !refused.includes(t))).toHaveLength(5);

    // REST and MCP spend from the same budget, in either process.
    const rest = await call(stack.gatewayUrl, '/api/capabilities/pii-redact/quote', {
      method: 'POST',
      apiKey: key.apiKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: { text: 'x' } }),
    });
    expect(rest.status).toBe(429);
    expect(ErrorResponse.parse(rest.json).error).toMatch(
      /^rate limit exceeded: the quotes budget allows 5 requests per 500 s/,
    );
  });
});

describe('MCP messages without a tool call', () => {
  it('spend reads; over budget the POST itself is refused, 429 in our shape with Retry-After', async () => {
    const clientName = uniqueClientName('mcp-list');
    const key = await stack.createApiKey({ clientName, scopes: ['capabilities:read'] });
    await admin([
      'set-rate-limit',
      '--client',
      clientName,
      '--budget',
      'reads',
      '--per-second',
      '0.002',
      '--burst',
      '1',
    ]);
    const list = () =>
      call(stack.gatewayUrl, '/mcp', {
        method: 'POST',
        apiKey: key.apiKey,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit')).toMatch(/^"reads";r=0;t=\d+$/);
    const second = await list();
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(ErrorResponse.parse(second.json).error).toMatch(
      /^rate limit exceeded: the reads budget allows 1 request per 500 s for this API key; retry in \d+ s$/,
    );
  });
});

describe('calls without a valid key are limited per source address', () => {
  it('public reads and failed key checks spend the address budget; another address has its own', async () => {
    // `limited` has TRUST_PROXY=1: req.ip is the X-Forwarded-For address (documentation range, never
    // contacted); the shared gateway does not trust it, so these addresses are this suite's alone.
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const searches = await Promise.all(
      Array.from({ length: 16 }, () =>
        call(limited.url, '/api/capabilities?q=crt', { headers: from('203.0.113.10') }),
      ),
    );
    const statuses = searches.map((r) => r.status);
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const refused = searches.find((r) => r.status === 429);
    expect(refused?.headers.get('ratelimit-policy')).toBe('"reads";q=2;w=2');
    expect(ErrorResponse.parse(refused?.json).error).toMatch(
      /^rate limit exceeded: the reads budget allows 2 requests per 2 s for this address/,
    );

    const elsewhere = await call(limited.url, '/api/capabilities?q=crt', { headers: from('203.0.113.11') });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get('ratelimit-policy')).toBe('"reads";q=2;w=2');

    // A key that does not verify: 401 while the address has budget, then 429.
    const guesses = await Promise.all(
      Array.from({ length: 16 }, () =>
        call(limited.url, '/api/account/balance', {
          apiKey: 'svc_live_notarealkey_notarealsecret',
          headers: from('203.0.113.12'),
        }),
      ),
    );
    const guessStatuses = guesses.map((r) => r.status);
    expect(guessStatuses).toContain(429);
    expect(guessStatuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(guesses.every((r) => r.headers.get('ratelimit-policy') === '"reads";q=2;w=2')).toBe(true);
  });
});
