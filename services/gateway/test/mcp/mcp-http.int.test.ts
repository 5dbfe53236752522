import { request } from 'node:http';
import { InternalError } from '@svc/errors';
import { pollUntil } from '@svc/testkit';
import { type AppHarness, BROKEN_STORE_KEY, startAppHarness } from '../support/app-harness';
import { bodyOf, rawRequest } from '../support/raw-http';
import { rawMcpPost } from './mcp-client';

/** The JSON-RPC messages of an answer: the `data:` lines of an SSE stream, or a JSON body. */
async function messagesOf(res: Response): Promise<Array<Record<string, unknown>>> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return [JSON.parse(text)];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

/** A POST to /mcp with the given Host (fetch never sends a forged one); resolves with the status. */
async function statusWithHost(
  baseUrl: string,
  host: string,
  headers: Record<string, string>,
): Promise<number> {
  const exchange = rawRequest(`${baseUrl}/mcp`, 'POST', {
    host,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...headers,
  });
  exchange.request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  const res = await exchange.response;
  await bodyOf(res);
  return res.statusCode ?? 0;
}

/** The HTTP edge of /mcp: auth before any JSON-RPC (M2), Host/Origin checks (M3), stateless methods (M1). */
describe('MCP endpoint over HTTP (app harness)', () => {
  let app: AppHarness;

  beforeAll(async () => {
    app = await startAppHarness({ mcpAllowedOrigins: undefined });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 401 with a Bearer challenge without a key, and with a wrong key', async () => {
    const none = await rawMcpPost(app.url, {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
    expect(await none.json()).toEqual({ ok: false, error: expect.stringMatching(/missing API key/) });

    const wrong = await rawMcpPost(app.url, { authorization: 'Bearer svc_live_nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="mcp", error="invalid_token"');
    expect(await wrong.json()).toEqual({
      ok: false,
      error: 'invalid API key: unknown, revoked or malformed',
    });
  });

  it('initializes statelessly with a valid key (no session id)', async () => {
    const res = await rawMcpPost(app.url, { authorization: `Bearer ${app.keys.plain}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const text = await res.text();
    expect(text).toMatch(/"serverInfo":\{"name":"capability-service"/);
  });

  it('refuses a foreign Origin and a foreign Host with 403, before the key is looked at', async () => {
    const origin = await rawMcpPost(app.url, {
      authorization: `Bearer ${app.keys.plain}`,
      origin: 'http://evil.example',
    });
    expect(origin.status).toBe(403);
    expect(await origin.json()).toEqual({ ok: false, error: expect.stringMatching(/Origin/) });

    const local = await rawMcpPost(app.url, {
      authorization: `Bearer ${app.keys.plain}`,
      origin: 'http://localhost:3000',
    });
    expect(local.status).toBe(200);

    // fetch will not send a forged Host: a raw request does.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${app.url}/mcp`,
        { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  it('answers malformed JSON and a non-JSON body in JSON-RPC shape once the key is accepted', async () => {
    const headers = {
      authorization: `Bearer ${app.keys.plain}`,
      accept: 'application/json, text/event-stream',
    };
    const malformed = await app.fetch('/mcp', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"jsonrpc": "2.0",',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const text = await app.fetch('/mcp', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });

  it('answers GET and DELETE with 405 and Allow (no sessions, no standalone stream)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await app.fetch('/mcp', {
        method,
        headers: { authorization: `Bearer ${app.keys.plain}`, accept: 'text/event-stream' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toMatch(/^POST\b/);
      expect(await res.json()).toEqual({ ok: false, error: expect.stringMatching(/not allowed/) });
    }
  });
});

describe('MCP origin allow-list from MCP_ALLOWED_ORIGINS / MCP_ALLOWED_HOSTS', () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await startAppHarness({
      mcpAllowedOrigins: ['https://app.example.com'],
      mcpAllowedHosts: ['127.0.0.1'],
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('lets the listed origin in and keeps loopback origins out once a list is set', async () => {
    const listed = await rawMcpPost(app.url, {
      authorization: `Bearer ${app.keys.plain}`,
      origin: 'https://app.example.com',
    });
    expect(listed.status).toBe(200);
    const local = await rawMcpPost(app.url, {
      authorization: `Bearer ${app.keys.plain}`,
      origin: 'http://localhost',
    });
    expect(local.status).toBe(403);
  });
});

/**
 * Protocol revisions on a stateless endpoint (decisions M1, M7): no initialize is needed before
 * tools/list or tools/call (spec §4 rule 6: the client begins with tools/list). A version the SDK
 * does not speak, 2026-07-28 included, gets the SDK's 400 -32000 "Unsupported protocol version":
 * a dual-era 2026-07-28 client reads that as a legacy server and falls back to initialize, where
 * 2025-11-25 is offered.
 */
describe('MCP protocol versions and bodies past authentication (app harness)', () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(async () => {
    await app.close();
  });
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    app.fetch('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${app.keys.plain}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  const describeCrt = {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'svc_capability_describe', arguments: { slug: 'crt' } },
  };

  it.each([['(none)'], ['2025-11-25'], ['2025-06-18'], ['2025-03-26']])(
    'answers tools/list and tools/call without initialize, MCP-Protocol-Version %s',
    async (version) => {
      const headers: Record<string, string> = version === '(none)' ? {} : { 'mcp-protocol-version': version };
      const listed = await post(list, headers);
      expect(listed.status).toBe(200);
      const [listAnswer] = await messagesOf(listed);
      expect(listAnswer).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
      const called = await post(describeCrt, headers);
      expect(called.status).toBe(200);
      const [callAnswer] = await messagesOf(called);
      expect(callAnswer).toMatchObject({
        id: 2,
        result: { structuredContent: { capability: { slug: 'crt' } } },
      });
    },
  );

  it.each([['2026-07-28'], ['1999-01-01']])(
    'answers MCP-Protocol-Version %s with 400 -32000 "Unsupported protocol version" (legacy signal)',
    async (version) => {
      const res = await post(list, { 'mcp-protocol-version': version });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message: expect.stringMatching(/^Bad Request: Unsupported protocol version: .*2025-11-25/),
        },
      });
    },
  );

  it('offers 2025-11-25 to an initialize asking for 2026-07-28, with a fixed tool list (listChanged false)', async () => {
    const res = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2026-07-28', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(res.status).toBe(200);
    const [answer] = await messagesOf(res);
    expect(answer).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    // The list is made at start-up and a stateless server never sends notifications/tools/list_changed.
    expect(answer?.result).toMatchObject({ capabilities: { tools: { listChanged: false } } });
  });

  it('answers bodies as decisions M7 says (JSON-RPC errors, 202 for notifications, batches as the SDK)', async () => {
    const notJsonRpc = await post({ hello: 'world' });
    expect(notJsonRpc.status).toBe(400);
    expect(await notJsonRpc.json()).toMatchObject({ error: { code: -32700 } });

    const notification = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notification.status).toBe(202);
    expect(await notification.text()).toBe('');

    // Batches (allowed by 2025-03-26, which the SDK still negotiates) are answered message by message.
    const batch = await post([list, describeCrt]);
    expect(batch.status).toBe(200);
    expect((await messagesOf(batch)).map((m) => m.id).sort()).toEqual([1, 2]);
    const tooMany = await post(Array.from({ length: 101 }, (_, i) => ({ ...list, id: i })));
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ error: { code: -32600 } });

    const big = await post({ ...list, params: { pad: 'x'.repeat(4 * 1024 * 1024) } });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });

    const jsonOnly = await post(list, { accept: 'application/json' });
    expect(jsonOnly.status).toBe(406);
    expect(await jsonOnly.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });
});

/** Host/Origin guard details (decisions M3): it answers before the key is looked up. */
describe('MCP Host/Origin guard (app harness)', () => {
  let app: AppHarness;
  let publicApp: AppHarness;
  beforeAll(async () => {
    app = await startAppHarness();
    publicApp = await startAppHarness({ publicBaseUrl: 'https://mcp.example.com' });
  });
  afterAll(async () => {
    await app.close();
    await publicApp.close();
  });

  it('refuses a rebinding attempt with 403 before the key store is asked (no 503 when it is down)', async () => {
    const broken = { authorization: `Bearer ${BROKEN_STORE_KEY}` };
    expect((await rawMcpPost(app.url, broken)).status).toBe(503); // the store is asked: down
    expect((await rawMcpPost(app.url, { ...broken, origin: 'http://evil.example' })).status).toBe(403);
    expect(await statusWithHost(app.url, 'evil.example', broken)).toBe(403);
  });

  it('reads Host like a name: any letter case, bracketed IPv6, no trailing-dot alias', async () => {
    const port = new URL(app.url).port;
    const key = { authorization: `Bearer ${app.keys.plain}` };
    expect(await statusWithHost(app.url, `LOCALHOST:${port}`, key)).toBe(200);
    expect(await statusWithHost(app.url, `[::1]:${port}`, key)).toBe(200);
    expect(await statusWithHost(app.url, `localhost.:${port}`, key)).toBe(403);
    expect(await statusWithHost(app.url, `127.0.0.1.evil.example:${port}`, key)).toBe(403);
  });

  it('refuses Origin null (sandboxed pages, file://) and accepts loopback origins in any case', async () => {
    const key = { authorization: `Bearer ${app.keys.plain}` };
    expect((await rawMcpPost(app.url, { ...key, origin: 'null' })).status).toBe(403);
    expect((await rawMcpPost(app.url, { ...key, origin: 'HTTP://LOCALHOST:5173' })).status).toBe(200);
    expect((await rawMcpPost(app.url, { ...key, origin: 'http://[::1]:5173' })).status).toBe(200);
  });

  it('allows the PUBLIC_BASE_URL host and origin by default, and only that scheme', async () => {
    const key = { authorization: `Bearer ${publicApp.keys.plain}` };
    expect(await statusWithHost(publicApp.url, 'mcp.example.com', key)).toBe(200);
    expect(
      await statusWithHost(publicApp.url, 'mcp.example.com', { ...key, origin: 'https://mcp.example.com' }),
    ).toBe(200);
    expect(
      await statusWithHost(publicApp.url, 'mcp.example.com', { ...key, origin: 'http://mcp.example.com' }),
    ).toBe(403);
    expect(await statusWithHost(publicApp.url, 'other.example.com', key)).toBe(403);
  });
});

describe('MCP svc_tool_run when the client goes away, and what the gateway logs (app harness)', () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await startAppHarness({ mcpRunWaitMs: 10_000 });
  });
  afterAll(async () => {
    await app.close();
  });

  it('stops waiting when the client disconnects mid-stream (no poll after, no unhandled rejection)', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      app.platform.crt.outcome = 'stay-queued';
      const abort = new AbortController();
      const res = await app.fetch('/mcp', {
        method: 'POST',
        signal: abort.signal,
        headers: {
          authorization: `Bearer ${app.keys.runner}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: {
            name: 'svc_tool_run',
            arguments: { slug: 'crt', input: { apex: 'example.com' }, idempotency_key: 'gone-away-1' },
            _meta: { progressToken: 'p1' },
          },
        }),
      });
      expect(res.status).toBe(200);
      const reader = res.body?.getReader();
      if (reader === undefined) throw new Error('no body');
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toMatch(/notifications\/progress/);
      expect(app.waiter.size).toBe(1);
      abort.abort();
      await reader.cancel().catch(() => undefined);
      // Released long before MCP_RUN_WAIT_MS (10 s), and the run is no longer polled.
      await pollUntil(() => app.waiter.size === 0, { what: 'the wait to stop' });
      const polls = app.requests('orchestrator', 'getRun').length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(app.requests('orchestrator', 'getRun').length).toBe(polls);
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      app.platform.crt.outcome = 'complete';
    }
  });

  it('never logs the API key or an upload token handed out by svc_upload_session_create', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const session = await app.fetch('/mcp', {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${app.keys.uploader}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'svc_upload_session_create',
          arguments: {
            slug: 'pdf-extract-text',
            input: { filename: 'a.pdf', content_type: 'application/pdf', size_bytes: 10 },
          },
        },
      }),
    });
    const [answer] = await messagesOf(session);
    const token = JSON.stringify(answer).match(/upl_[A-Za-z0-9]+/)?.[0];
    expect(token).toBeDefined();
    // A 5xx tool failure is logged with its cause: even a cause quoting the credential stays clean.
    app.platform.rpc.failNext(
      'orchestrator',
      new InternalError(`driver echoed Authorization: Bearer ${app.keys.runner}`),
      'getRun',
    );
    const failed = await app.fetch('/mcp', {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${app.keys.runner}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'svc_tool_status', arguments: { run_id: '0b9d3c1e-7a4f-4e2b-8c6d-5e1f2a3b4c5d' } },
      }),
    });
    expect(await messagesOf(failed)).toMatchObject([{ result: { isError: true } }]);
    await app.waitForLog((line) => line.msg === 'MCP tool failed');
    await app.waitForLog((line) => JSON.stringify(line).includes('"statusCode":200'));
    const logs = app.rawLogs();
    expect(logs).toMatch(/"url":"\/mcp"/);
    for (const secret of [app.keys.uploader, app.keys.runner, token ?? 'upl_']) {
      expect(logs).not.toContain(secret);
    }
  });
});
