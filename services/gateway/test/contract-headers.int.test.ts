import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { API_VERSION, type ApiOperation, apiOperations, type ContractDeprecation } from '@svc/contracts';
import { memoryLogger } from '@svc/log';
import { type AppDeps, createApp } from '../src/app';
import { checkDeprecations, restElementId } from '../src/middleware/contract-headers';
import { connectMcp, rawMcpPost } from './mcp/mcp-client';
import { type AppHarness, CLIENT_ID, startAppHarness } from './support/app-harness';
import { bodyOf, rawRequest } from './support/raw-http';

const RUN_ID = '9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f';
const LINK = 'https://docs.example.com/deprecations/run-status';

/** An operation's path with its template parameters filled in with harmless values. */
function concretePath(op: ApiOperation): string {
  return op.path.replace(/\{([^}]+)\}/g, (_all, name: string) =>
    name === 'slug' ? 'crt' : name.endsWith('_id') ? RUN_ID : 'x',
  );
}

function expectNoDeprecation(res: Response): void {
  expect(res.headers.get('deprecation')).toBeNull();
  expect(res.headers.get('sunset')).toBeNull();
  expect(res.headers.get('link')).toBeNull();
}

describe('Svc-Contract-Version on every answer (nothing deprecated: the default)', () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await startAppHarness();
  });
  afterAll(() => h.close());

  // Every operation of the OpenAPI document, called without a key or body: 2xx for the public ones,
  // 401 for the rest (answered before any handler or body read).
  test.each(apiOperations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s',
    async (_label, op) => {
      const res = await h.fetch(concretePath(op), { method: op.method.toUpperCase() });
      await res.arrayBuffer();
      expect(res.status).toBe(op.auth.kind === 'public' ? 200 : 401);
      expect(res.headers.get('svc-contract-version')).toBe(API_VERSION);
      expectNoDeprecation(res);
    },
  );

  test.each([
    ['200 with a key', '/api/account/balance', { headers: { authorization: 'billing' } }, 200],
    ['404 of an unknown path', '/nope', {}, 404],
    [
      '404 of a run that is not there',
      `/api/capability-runs/${RUN_ID}`,
      { headers: { authorization: 'runner' } },
      404,
    ],
    ['405', '/api/account/balance', { method: 'DELETE' }, 405],
    ['OPTIONS', '/api/capabilities', { method: 'OPTIONS' }, 204],
    ['HEAD', '/healthz', { method: 'HEAD' }, 200],
    ['422 of the path check', '/api/capabilities/a%00b', {}, 422],
    [
      '400 of a malformed JSON body',
      '/api/capabilities/crt/quote',
      { method: 'POST', headers: { authorization: 'quoter', 'content-type': 'application/json' }, body: '{' },
      400,
    ],
  ] as const)('%s', async (_label, path, init, status) => {
    const { authorization, ...headers } = ('headers' in init ? init.headers : {}) as Record<string, string>;
    const res = await h.fetch(path, {
      ...init,
      headers: {
        ...headers,
        ...(authorization === undefined
          ? {}
          : { authorization: `Bearer ${h.keys[authorization as keyof AppHarness['keys']]}` }),
      },
    });
    await res.arrayBuffer();
    expect(res.status).toBe(status);
    expect(res.headers.get('svc-contract-version')).toBe(API_VERSION);
    expectNoDeprecation(res);
  });

  test('304 of /openapi.json (node:http: fetch adds Cache-Control: no-cache to a conditional request)', async () => {
    const etag = (await h.fetch('/openapi.json')).headers.get('etag') ?? '';
    const exchange = rawRequest(`${h.url}/openapi.json`, 'GET', { 'if-none-match': etag });
    exchange.request.end();
    const res = await exchange.response;
    await bodyOf(res);
    expect(res.statusCode).toBe(304);
    expect(res.headers['svc-contract-version']).toBe(API_VERSION);
    expect(res.headers.etag).toBe(etag);
  });

  test('503 when a backing service is down', async () => {
    h.platform.rpc.down('registry');
    try {
      const res = await h.fetch('/api/capabilities?q=unseen-query');
      await res.arrayBuffer();
      expect(res.status).toBe(503);
      expect(res.headers.get('svc-contract-version')).toBe(API_VERSION);
    } finally {
      h.platform.rpc.up('registry');
    }
  });

  test('POST /mcp: the JSON answer, the SDK transport answer (406) and the 401', async () => {
    const ok = await rawMcpPost(h.url, { authorization: `Bearer ${h.keys.plain}` });
    const refused = await rawMcpPost(h.url, {
      authorization: `Bearer ${h.keys.plain}`,
      accept: 'application/json',
    });
    const anonymous = await rawMcpPost(h.url, {});
    expect([ok.status, refused.status, anonymous.status]).toEqual([200, 406, 401]);
    for (const res of [ok, refused, anonymous]) {
      await res.arrayBuffer();
      expect(res.headers.get('svc-contract-version')).toBe(API_VERSION);
      expectNoDeprecation(res);
    }
  });

  test('tools/list: no tool says it is deprecated', async () => {
    const client = await connectMcp(h.url, h.keys.plain);
    try {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        expect(tool.description).not.toMatch(/deprecated/i);
        expect(tool._meta?.deprecated).toBeUndefined();
      }
    } finally {
      await client.close();
    }
  });
});

const DEPRECATED: Record<string, ContractDeprecation> = {
  'rest:GET /api/capability-runs/{run_id}': {
    since: '2026-09-01',
    sunset: '2027-03-01',
    replacement: 'rest:GET /api/capability-runs/{run_id}/receipt',
    link: LINK,
  },
  // A template that also matches a literal path (`/api/capabilities/crt/run`), which must win.
  'rest:POST /api/capabilities/{slug}/run': { since: '2026-09-01', sunset: '2026-09-01', link: LINK },
  'mcp:svc_tool_status': {
    since: '2026-10-15',
    sunset: '2027-01-31',
    replacement: 'mcp:svc_tool_run',
    link: 'https://docs.example.com/deprecations/svc_tool_status',
  },
};

describe('a deprecated element (test configuration)', () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await startAppHarness({ deprecations: DEPRECATED });
  });
  afterAll(() => h.close());

  const runStatus = (init: RequestInit = {}, path = `/api/capability-runs/${RUN_ID}`) =>
    h.fetch(path, init).then(async (res) => {
      await res.arrayBuffer();
      return res;
    });

  function expectDeprecated(res: Response): void {
    expect(res.headers.get('svc-contract-version')).toBe(API_VERSION);
    // RFC 9745: a structured-field Date, `@` and the integer seconds of 2026-09-01T00:00:00Z.
    expect(res.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 8, 1) / 1000}`);
    expect(res.headers.get('deprecation')).toBe('@1788220800');
    // RFC 8594: an HTTP-date in IMF-fixdate form.
    expect(res.headers.get('sunset')).toBe('Mon, 01 Mar 2027 00:00:00 GMT');
    expect(res.headers.get('link')).toBe(
      `<${LINK}>; rel="deprecation", ` +
        '</openapi.json#/paths/~1api~1capability-runs~1%7Brun_id%7D~1receipt/get>; rel="successor-version"',
    );
  }

  test('on its 401, its 404 and its 200', async () => {
    const anonymous = await runStatus();
    expect(anonymous.status).toBe(401);
    expectDeprecated(anonymous);
    const missing = await runStatus({ headers: { authorization: `Bearer ${h.keys.runner}` } });
    expect(missing.status).toBe(404);
    expectDeprecated(missing);
    const runId = await h.runs.completedCrtRun(CLIENT_ID, {
      apex: 'example.com',
      include_first_seen: false,
      limit: 10,
    });
    const found = await runStatus(
      { headers: { authorization: `Bearer ${h.keys.runner}` } },
      `/api/capability-runs/${runId}`,
    );
    expect(found.status).toBe(200);
    expectDeprecated(found);
  });

  test('on HEAD and with a trailing slash, as the router matches them', async () => {
    expectDeprecated(await runStatus({ method: 'HEAD' }));
    expectDeprecated(await runStatus({}, `/api/capability-runs/${RUN_ID}/`));
  });

  test('not on other operations, other methods of the same path, or unknown paths', async () => {
    for (const [path, init] of [
      [`/api/capability-runs/${RUN_ID}/receipt`, {}],
      [`/api/capability-runs/${RUN_ID}`, { method: 'POST' }],
      [`/api/capability-runs/${RUN_ID}`, { method: 'OPTIONS' }],
      [`/api/capability-runs/${RUN_ID}/x/y`, {}],
      ['/healthz', {}],
    ] as const) {
      const res = await runStatus(init, path);
      expect(res.headers.get('svc-contract-version')).toBe(API_VERSION);
      expectNoDeprecation(res);
    }
  });

  test('a literal path wins over a deprecated template; sunset on the day of deprecation', async () => {
    const crt = await runStatus({ method: 'POST' }, '/api/capabilities/crt/run');
    expect(crt.status).toBe(401);
    expectNoDeprecation(crt);
    const other = await runStatus({ method: 'POST' }, '/api/capabilities/other/run');
    expect(other.status).toBe(401);
    expect(other.headers.get('deprecation')).toBe('@1788220800');
    expect(other.headers.get('sunset')).toBe('Tue, 01 Sep 2026 00:00:00 GMT');
    expect(other.headers.get('link')).toBe(`<${LINK}>; rel="deprecation"`);
  });

  test('tools/list: the deprecated tool says so in its description and _meta', async () => {
    const client = await connectMcp(h.url, h.keys.plain);
    try {
      const { tools } = await client.listTools();
      const byName = new Map<string, Tool>(tools.map((tool) => [tool.name, tool]));
      const status = byName.get('svc_tool_status');
      expect(status?.description).toMatch(
        /^Deprecated since 2026-10-15; sunset 2027-01-31; use svc_tool_run instead\. See https:\/\/docs\.example\.com\/deprecations\/svc_tool_status\n\n\S/,
      );
      expect(status?._meta?.deprecated).toEqual(DEPRECATED['mcp:svc_tool_status']);
      for (const tool of tools.filter((t) => t.name !== 'svc_tool_status')) {
        expect(tool.description).not.toMatch(/^Deprecated/);
        expect(tool._meta?.deprecated).toBeUndefined();
      }
      // The HTTP answer of POST /mcp is not a deprecated operation's: no Deprecation header.
      const res = await rawMcpPost(h.url, { authorization: `Bearer ${h.keys.plain}` });
      await res.arrayBuffer();
      expectNoDeprecation(res);
    } finally {
      await client.close();
    }
  });
});

describe('the configuration check at start', () => {
  const good: ContractDeprecation = { since: '2026-09-01', sunset: '2027-03-01', link: LINK };

  test.each([
    [
      'an element that does not exist',
      { 'rest:GET /api/nope': good },
      'rest:GET /api/nope: no such contract element',
    ],
    ['an MCP tool that does not exist', { 'mcp:svc_nope': good }, 'mcp:svc_nope: no such contract element'],
    [
      'a method the path does not have',
      { 'rest:PATCH /healthz': good },
      'rest:PATCH /healthz: no such contract element',
    ],
    [
      'sunset before since',
      { 'rest:GET /healthz': { ...good, sunset: '2026-08-31' } },
      'rest:GET /healthz.sunset: must not be earlier than since',
    ],
    [
      'a replacement that does not exist',
      { 'rest:GET /healthz': { ...good, replacement: 'rest:GET /livez' } },
      'rest:GET /healthz.replacement: no such contract element: rest:GET /livez',
    ],
    [
      'the element as its own replacement',
      { 'rest:GET /healthz': { ...good, replacement: 'rest:GET /healthz' } },
      'must not be the element itself',
    ],
    [
      'a date that is not a day',
      { 'rest:GET /healthz': { ...good, since: '2026-02-30' } },
      'rest:GET /healthz.since: must be a date YYYY-MM-DD',
    ],
    [
      'a link that is not http(s)',
      { 'rest:GET /healthz': { ...good, link: 'javascript:alert(1)' } },
      'link: must be an absolute http(s) URL',
    ],
    [
      'a link that would break the Link header',
      { 'rest:GET /healthz': { ...good, link: 'https://x.example/a>b' } },
      'link: must not contain',
    ],
    ['an unknown element kind', { 'thing:x': good }, 'must be an element id'],
  ] as const)('%s fails the start', (_label, deprecations, message) => {
    const { logger } = memoryLogger('gateway');
    // createApp checks the deprecations before it uses any other dependency.
    const deps = { logger, deprecations } as unknown as AppDeps;
    expect(() => createApp(deps)).toThrow(message);
    expect(() => createApp(deps)).toThrow('invalid contract deprecations');
  });

  test('every element of the kinds the gateway knows can be deprecated, and nothing is today', () => {
    const all = Object.fromEntries(apiOperations.map((op) => [restElementId(op), good]));
    expect(
      Object.keys(checkDeprecations({ ...all, 'mcp:svc_tool_run': good, 'scope:billing:read': good })),
    ).toHaveLength(apiOperations.length + 2);
    expect(checkDeprecations({ 'limit:crt.limit': good })).toEqual({ 'limit:crt.limit': good });
    expect(checkDeprecations({})).toEqual({});
  });
});
