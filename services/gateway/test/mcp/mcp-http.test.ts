import { request } from 'node:http';
import { type AppHarness, startAppHarness } from '../support/app-harness';
import { rawMcpPost } from './mcp-client';

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
