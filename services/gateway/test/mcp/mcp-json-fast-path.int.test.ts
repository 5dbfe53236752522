import { pollUntil } from '@svc/testkit';
import { type AppHarness, startAppHarness } from '../support/app-harness';

/**
 * Issue 15 item 6: one JSON-RPC request answered as JSON skips the SDK's HTTP transport
 * (json-transport.ts). These check that the answer is the one the SDK transport gives: the same
 * result as through the SDK (a request asking for progress still goes there, answered as SSE), the
 * same framing, and a client that leaves still stops the tool's work.
 */

const ACCEPT = 'application/json, text/event-stream';

function describeCall(id: number, progress: boolean) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'svc_capability_describe',
      arguments: { slug: 'crt' },
      ...(progress ? { _meta: { progressToken: 'p' } } : {}),
    },
  };
}

describe('MCP JSON fast path (app harness)', () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await startAppHarness({ mcpRunWaitMs: 60_000 });
  });
  afterAll(async () => {
    await app.close();
  });

  function post(body: unknown, key = app.keys.plain, signal?: AbortSignal): Promise<Response> {
    return app.fetch('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: ACCEPT,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify(body),
      ...(signal === undefined ? {} : { signal }),
    });
  }

  it('answers a tools/call with the same result as the SDK transport, as one JSON body', async () => {
    const fast = await post(describeCall(41, false));
    expect(fast.status).toBe(200);
    expect(fast.headers.get('content-type')).toBe('application/json');
    const text = await fast.text();
    expect(fast.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    const answer = JSON.parse(text);

    // Through the SDK transport (progress asked: SSE); its one data line is the same message.
    const viaSdk = await post(describeCall(41, true));
    expect(viaSdk.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const dataLines = (await viaSdk.text()).split('\n').filter((line) => line.startsWith('data: '));
    const sdkAnswer = JSON.parse(dataLines.at(-1)?.slice('data: '.length) ?? 'null');
    expect(answer).toEqual(sdkAnswer);
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 41, result: { structuredContent: { ok: true } } });
  });

  it('answers protocol errors and unsupported versions as the SDK does', async () => {
    const unknownTool = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nope' } });
    expect(unknownTool.status).toBe(200);
    expect(await unknownTool.json()).toMatchObject({ id: 2, error: { code: -32602 } });

    const badArgs = await post({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'svc_capability_describe', arguments: 'crt' },
    });
    expect(await badArgs.json()).toMatchObject({ id: 3, error: { code: -32602 } });

    const oldVersion = await app.fetch('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${app.keys.plain}`,
        'content-type': 'application/json',
        accept: ACCEPT,
        'mcp-protocol-version': '1999-01-01',
      },
      body: JSON.stringify(describeCall(4, false)),
    });
    expect(oldVersion.status).toBe(400);
    expect(await oldVersion.json()).toMatchObject({
      error: { code: -32000, message: /Unsupported protocol version/ },
    });
  });

  it('stops a waiting svc_tool_run when the client leaves before the JSON answer', async () => {
    app.platform.crt.outcome = 'stay-queued';
    try {
      const abort = new AbortController();
      const pending = post(
        {
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: {
            name: 'svc_tool_run',
            arguments: { slug: 'crt', input: { apex: 'example.com' }, idempotency_key: 'fast-gone-1' },
          },
        },
        app.keys.runner,
        abort.signal,
      ).catch(() => undefined);
      await pollUntil(() => app.waiter.size === 1, { what: 'the run wait to start' });
      abort.abort();
      await pending;
      // Released long before MCP_RUN_WAIT_MS (60 s).
      await pollUntil(() => app.waiter.size === 0, { what: 'the wait to stop' });
    } finally {
      app.platform.crt.outcome = 'complete';
    }
  });
});
