import { CrtCompletedRunResponse } from '@svc/contracts';
import { SHARED_STACK_BEFORE_ALL_MS, type TestApiKey } from '@svc/testkit';
import { errorBody, postCrtRun } from './support/crt-e2e';
import { type SharedPlatform, sharedPlatform } from './support/shared-platform';

/**
 * Every 422 of issue 3 (spec §7.2: envelope, crt input, Idempotency-Key) over the real gateway,
 * and the accepted edge cases, run all the way through the platform (the jest run's shared one). A
 * rejected request must not reach the orchestrator: no run row, no provider call. The providers
 * are shared with every suite of the run, so each request here names an apex no other suite asks
 * for, and the provider calls are counted per apex.
 */

/** The apex of every rejected request that names a valid one: no provider may ever see it. */
const REJECTED_APEX = 'rejected-requests.com';
const valid = { input: { apex: REJECTED_APEX } };
const label63 = 'a'.repeat(63);

// [what, body, Idempotency-Key header, the error must match]
const rejected: ReadonlyArray<[string, unknown, string | undefined, RegExp]> = [
  ['missing input', {}, undefined, /^input: /],
  ['a body that is not an object', [valid], undefined, /^body: /],
  ['input that is not an object', { input: 'example.com' }, undefined, /^input: /],
  ['an unknown envelope property', { ...valid, priority: 'high' }, undefined, /priority/],
  ['an unknown input property', { input: { apex: REJECTED_APEX, depth: 2 } }, undefined, /input.*depth/],
  ['a missing apex', { input: { limit: 5 } }, undefined, /^input\.apex: /],
  ['an apex that is not a string', { input: { apex: 42 } }, undefined, /^input\.apex: /],
  [
    'a subdomain',
    { input: { apex: 'www.example.com' } },
    undefined,
    /^input\.apex: www\.example\.com is a subdomain; give its registrable domain example\.com$/,
  ],
  [
    'an ICANN public suffix',
    { input: { apex: 'co.uk' } },
    undefined,
    /^input\.apex: co\.uk is a public suffix \(ICANN/,
  ],
  [
    'a PRIVATE public suffix',
    { input: { apex: 'github.io' } },
    undefined,
    /^input\.apex: github\.io is a public suffix \(PRIVATE/,
  ],
  ['an IPv4 address', { input: { apex: '192.0.2.1' } }, undefined, /^input\.apex: .*IP address/],
  ['an IPv6 address', { input: { apex: '2001:db8::1' } }, undefined, /^input\.apex: .*IP address/],
  ['an empty apex', { input: { apex: '' } }, undefined, /^input\.apex: must not be empty/],
  ['an empty label', { input: { apex: 'example..com' } }, undefined, /^input\.apex: .*empty label/],
  ['a leading dot', { input: { apex: '.example.com' } }, undefined, /^input\.apex: .*empty label/],
  ['a trailing dot', { input: { apex: 'example.com.' } }, undefined, /^input\.apex: /],
  [
    'a 64-character label',
    { input: { apex: `${label63}a.com` } },
    undefined,
    /^input\.apex: .*longer than 63/,
  ],
  [
    'a name over 253 characters',
    { input: { apex: `${label63}.${label63}.${label63}.${label63}.com` } },
    undefined,
    /^input\.apex: .*253/,
  ],
  ['non-ASCII', { input: { apex: 'bücher.de' } }, undefined, /^input\.apex: .*ASCII/],
  ['an underscore', { input: { apex: 'exa_mple.com' } }, undefined, /^input\.apex: .*RFC 1123/],
  ['a leading hyphen', { input: { apex: '-example.com' } }, undefined, /^input\.apex: .*RFC 1123/],
  ['a space', { input: { apex: 'exa mple.com' } }, undefined, /^input\.apex: /],
  ['limit 0', { input: { apex: REJECTED_APEX, limit: 0 } }, undefined, /^input\.limit: /],
  ['limit 1001', { input: { apex: REJECTED_APEX, limit: 1001 } }, undefined, /^input\.limit: /],
  ['limit 1.5', { input: { apex: REJECTED_APEX, limit: 1.5 } }, undefined, /^input\.limit: /],
  ['limit "10"', { input: { apex: REJECTED_APEX, limit: '10' } }, undefined, /^input\.limit: /],
  [
    'include_first_seen "true"',
    { input: { apex: REJECTED_APEX, include_first_seen: 'true' } },
    undefined,
    /^input\.include_first_seen: /,
  ],
  ['a 1-character client_type', { ...valid, client_type: 'a' }, undefined, /^client_type: /],
  ['a 25-character client_type', { ...valid, client_type: 'c'.repeat(25) }, undefined, /^client_type: /],
  ['a client_type outside the pattern', { ...valid, client_type: 'my agent!' }, undefined, /^client_type: /],
  ['a quote_id that is not a UUID', { ...valid, quote_id: 'quote-123' }, undefined, /^quote_id: /],
  ['a quote_id that is not a string', { ...valid, quote_id: 12345 }, undefined, /^quote_id: /],
  ['a 7-character Idempotency-Key', valid, 'abc1234', /idempotency-key/i],
  ['a 191-character Idempotency-Key', valid, 'k'.repeat(191), /idempotency-key/i],
  ['an Idempotency-Key outside the pattern', valid, 'key with spaces', /idempotency-key/i],
  ['an Idempotency-Key with a slash', valid, 'abc/def/ghi', /idempotency-key/i],
];

// [what, apex sent, apex in the result, extra envelope fields, Idempotency-Key]
const accepted: ReadonlyArray<[string, string, string, Record<string, unknown>, string | undefined]> = [
  ['a domain under a PRIVATE suffix', 'foo.github.io', 'foo.github.io', {}, undefined],
  ['a domain under a two-label ICANN suffix', 'example.co.uk', 'example.co.uk', {}, undefined],
  ['an xn-- (punycode) label', 'xn--bcher-kva.de', 'xn--bcher-kva.de', {}, undefined],
  ['mixed case (lowercased)', 'MiXeD-Case.CoM', 'mixed-case.com', {}, undefined],
  ['a 63-character label', `${label63}.com`, `${label63}.com`, {}, undefined],
  [
    'the shortest client_type and Idempotency-Key',
    'short-keys.net',
    'short-keys.net',
    { client_type: 'ab' },
    'a.b:c-d_',
  ],
  [
    'the longest client_type and Idempotency-Key',
    'long-keys.net',
    'long-keys.net',
    { client_type: 'A'.repeat(24) },
    'K'.repeat(190),
  ],
];

describe('crt run validation, end to end', () => {
  let crt: SharedPlatform;
  let runner: TestApiKey;

  beforeAll(async () => {
    crt = await sharedPlatform();
    runner = await crt.stack.createApiKey({ scopes: ['capabilities:run'] });
  }, SHARED_STACK_BEFORE_ALL_MS);
  afterAll(() => crt?.close());

  it.each(rejected)('422 for %s', async (_what, body, idempotencyKey, message) => {
    const result = await postCrtRun(crt.stack, body, {
      apiKey: runner.apiKey,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
    expect(result.status).toBe(422);
    expect(errorBody(result)).toMatch(message);
  });

  it('ran nothing for any rejected request', async () => {
    const apexes = new Set(
      rejected.flatMap(([, body]) => {
        const apex = (body as { input?: { apex?: unknown } } | undefined)?.input?.apex;
        return typeof apex === 'string' ? [apex.toLowerCase()] : [];
      }),
    );
    expect(apexes).toContain(REJECTED_APEX);
    for (const apex of apexes) {
      expect({ apex, calls: await crt.stack.fakeCtCalls('crt.sh', apex) }).toEqual({ apex, calls: 0 });
      expect({ apex, calls: await crt.stack.fakeCtCalls('certspotter', apex) }).toEqual({ apex, calls: 0 });
    }
    expect(await crt.prisma.run.count({ where: { clientId: runner.clientId } })).toBe(0);
  });

  it.each(accepted)('accepts %s', async (_what, apex, resultApex, extra, idempotencyKey) => {
    const result = await postCrtRun(
      crt.stack,
      { input: { apex, limit: 1000 }, ...extra },
      { apiKey: runner.apiKey, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) },
    );
    expect(result.status).toBe(200);
    const body = CrtCompletedRunResponse.parse(result.json);
    expect(body.result.apex).toBe(resultApex);
    expect(body.result.observations.length).toBeGreaterThan(0);
    for (const { hostname } of body.result.observations) {
      expect(hostname === resultApex || hostname.endsWith(`.${resultApex}`)).toBe(true);
    }
    expect(await crt.stack.fakeCtCalls('crt.sh', resultApex)).toBe(1);
  });

  it('accepts the limit bounds 1 and 1000', async () => {
    for (const limit of [1, 1000]) {
      const result = await postCrtRun(
        crt.stack,
        { input: { apex: 'bounds.org', limit } },
        { apiKey: runner.apiKey },
      );
      expect(result.status).toBe(200);
      const body = CrtCompletedRunResponse.parse(result.json);
      expect(body.result.limit).toBe(limit);
      expect(body.result.count).toBeLessThanOrEqual(limit);
    }
  });
});
