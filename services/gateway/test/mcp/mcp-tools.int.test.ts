import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { QuoteResponse } from '@svc/contracts';
import { ServiceUnavailableError } from '@svc/errors';
import { PII_RESULT_OF_X } from '@svc/test-platform';
import { sleep } from '@svc/testkit';
import { z } from 'zod';
import { type AppHarness, CLIENT_ID, startAppHarness } from '../support/app-harness';
import { errorOf } from '../support/run-requests';
import { callTool, connectMcp, firstText, TOOL_NAMES } from './mcp-client';

/**
 * The MCP tools over real streamable HTTP (SDK Client + StreamableHTTPClientTransport) against the
 * gateway app over the services' real handlers in this process: each tool answers what its REST twin
 * does.
 */

describe('MCP tools (app harness)', () => {
  let app: AppHarness;
  const clients: Client[] = [];
  const connect = async (key: string) => {
    const client = await connectMcp(app.url, key);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    app = await startAppHarness({ mcpRunWaitMs: 3_000 });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
  });

  it('lists the nine tools with valid JSON Schemas and truthful annotations', async () => {
    const client = await connect(app.keys.plain);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    const ajv = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      // Compiling checks each schema against its meta-schema; an invalid one throws.
      expect(() => ajv.getValidator(tool.inputSchema)).not.toThrow();
      expect(() => ajv.getValidator(tool.outputSchema ?? {})).not.toThrow();
      expect(tool.description?.length ?? 0).toBeGreaterThan(40);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('svc_capability_describe')?.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get('svc_tool_cancel')?.annotations).toMatchObject({ destructiveHint: true });
    // Without idempotency_key every call starts a new run: not idempotent in MCP's sense.
    expect(byName.get('svc_tool_run')?.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
    });
    const run = byName.get('svc_tool_run')?.inputSchema;
    expect(Object.keys(run?.properties ?? {}).sort()).toEqual(
      ['client_type', 'idempotency_key', 'input', 'quote_id', 'slug'].sort(),
    );
    expect(run?.required).toEqual(['slug']);
  });

  it('describes and searches with exactly the REST bodies', async () => {
    const client = await connect(app.keys.plain);
    const described = await callTool(client, 'svc_capability_describe', { slug: 'crt' });
    const rest = await (await app.fetch('/api/capabilities/crt')).json();
    expect(described.isError).toBeUndefined();
    expect(described.structuredContent).toEqual(rest);
    const searched = await callTool(client, 'svc_capabilities_search', { q: 'certificates', limit: 5 });
    expect(searched.structuredContent).toEqual(
      await (await app.fetch('/api/capabilities?q=certificates&limit=5')).json(),
    );
    const { count } = searched.structuredContent as { count: number };
    expect(firstText(searched)).toMatch(
      new RegExp(`^${count} ${count === 1 ? 'capability' : 'capabilities'} found`),
    );
    const unknown = await callTool(client, 'svc_capability_describe', { slug: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(firstText(unknown)).toBe('unknown capability: nope');
  });

  it('quotes and runs a paid capability, then reads its status and cancels it', async () => {
    const client = await connect(app.keys.payer);
    const input = { text: 'mail me at a@example.com' };
    const quoted = await callTool(client, 'svc_tool_quote', { slug: 'pii-redact', input });
    expect(quoted.isError).toBeUndefined();
    const { quote } = QuoteResponse.parse(quoted.structuredContent);
    expect(quote.price_usd).toBe('0.002');
    const run = await callTool(client, 'svc_tool_run', {
      slug: 'pii-redact',
      input,
      quote_id: quote.quote_id,
      idempotency_key: 'mcp-test-run-1',
    });
    expect(run.isError).toBeUndefined();
    expect(run.structuredContent).toMatchObject({ ok: true, run_id: quote.quote_id, status: 'queued' });
    expect(app.requests('orchestrator', 'startRun').at(-1)).toMatchObject({
      slug: 'pii-redact',
      quote_id: quote.quote_id,
      idempotency_key: 'mcp-test-run-1',
    });
    const status = await callTool(client, 'svc_tool_status', { run_id: quote.quote_id });
    const restStatus = await (
      await app.fetch(`/api/capability-runs/${quote.quote_id}`, {
        headers: { authorization: `Bearer ${app.keys.payer}` },
      })
    ).json();
    expect(status.structuredContent).toEqual(restStatus);
    const cancelled = await callTool(client, 'svc_tool_cancel', { run_id: quote.quote_id });
    expect(cancelled.structuredContent).toMatchObject({ run_id: quote.quote_id, status: 'cancelled' });
    const again = await callTool(client, 'svc_tool_run', {
      slug: 'pii-redact',
      input,
      quote_id: quote.quote_id,
      idempotency_key: 'mcp-test-run-1',
    });
    expect(again.structuredContent).toMatchObject({ idempotent_replay: true, run_id: quote.quote_id });
  });

  it('points a paid run without quote_id at svc_tool_quote, not at the REST route (issue 23 item 13)', async () => {
    const client = await connect(app.keys.payer);
    const input = { text: 'mail me at a@example.com' };
    const refused = await callTool(client, 'svc_tool_run', { slug: 'pii-redact', input });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toBe(
      'quote_id is required for paid capabilities: quote this input first ' +
        '(svc_tool_quote with the same slug and input, then pass its quote.quote_id to svc_tool_run)',
    );
    // Nothing was recorded (a 4xx): no made-up key to retry with.
    expect(refused.content).toHaveLength(1);
    // REST keeps its own route in the words.
    const rest = await app.fetch('/api/capabilities/pii-redact/run', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${app.keys.payer}`,
        'content-type': 'application/json',
        'idempotency-key': 'rest-no-quote-1',
      },
      body: JSON.stringify({ input }),
    });
    expect(rest.status).toBe(422);
    expect(await errorOf(rest)).toBe(
      'quote_id is required for paid capabilities: quote this input first (POST /api/capabilities/pii-redact/quote)',
    );
  });

  it('makes up an idempotency key when none is given, and says so', async () => {
    const client = await connect(app.keys.payer);
    const result = await callTool(client, 'svc_tool_run', {
      slug: 'crt-batch-plan',
      input: { apexes: ['example.com'] },
    });
    expect(result.isError).toBeUndefined();
    expect(firstText(result)).toMatch(/no idempotency_key was given; used "mcp-[0-9a-f-]{36}"/);
    const key = /"(mcp-[0-9a-f-]{36})"/.exec(firstText(result))?.[1];
    expect(app.requests('orchestrator', 'startRun').at(-1)).toMatchObject({ idempotency_key: key });
  });

  it('names the made-up idempotency key in an error result whose outcome is unknown (5xx), not otherwise', async () => {
    const client = await connect(app.keys.payer);
    app.platform.rpc.failNext(
      'orchestrator',
      new ServiceUnavailableError('orchestrator service did not answer within 1000 ms'),
      'startRun',
    );
    const timedOut = await callTool(client, 'svc_tool_run', {
      slug: 'crt-batch-plan',
      input: { apexes: ['example.com'] },
    });
    expect(timedOut.isError).toBe(true);
    expect(firstText(timedOut)).toBe(
      'orchestrator service did not answer within 1000 ms; the run may have been recorded: retry with the same Idempotency-Key',
    );
    const key = z
      .object({ idempotency_key: z.string() })
      .parse(app.requests('orchestrator', 'startRun').at(-1)).idempotency_key;
    expect(key).toMatch(/^mcp-[0-9a-f-]{36}$/);
    expect(timedOut.content[1]).toEqual({
      type: 'text',
      text: `no idempotency_key was given; used "${key}" — pass it again to retry safely`,
    });
    // A refusal (409 describe_only): nothing was recorded, the key would be noise.
    const refused = await callTool(client, 'svc_tool_run', { slug: 'whois', input: {} });
    expect(refused.isError).toBe(true);
    expect(refused.content).toHaveLength(1);
  });

  it('answers a failed crt run with the REST message, without a key to replay it', async () => {
    const client = await connect(app.keys.runner);
    app.platform.crt.outcome = 'fail-provider';
    try {
      const failed = await callTool(client, 'svc_tool_run', {
        slug: 'crt',
        input: { apex: 'example.net' },
      });
      expect(failed.isError).toBe(true);
      expect(firstText(failed)).toMatch(/^run [0-9a-f-]{36} failed: /);
      expect(failed.content).toHaveLength(1);
    } finally {
      app.platform.crt.outcome = 'complete';
    }
  });

  it('runs crt through its own flow and waits for the result', async () => {
    const client = await connect(app.keys.runner);
    const result = await callTool(client, 'svc_tool_run', { slug: 'crt', input: { apex: 'example.com' } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ status: 'completed', idempotent_replay: false });
    expect(app.requests('orchestrator', 'startCrtRun').at(-1)).toMatchObject({
      input: { apex: 'example.com', include_first_seen: false, limit: 100 },
    });
    const bad = await callTool(client, 'svc_tool_run', { slug: 'crt', input: { apex: 'www.example.com' } });
    expect(bad.isError).toBe(true);
    const rest = await app.fetch('/api/capabilities/crt/run', {
      method: 'POST',
      headers: { authorization: `Bearer ${app.keys.runner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { apex: 'www.example.com' } }),
    });
    expect(rest.status).toBe(422);
    expect(firstText(bad)).toBe(await errorOf(rest));
  });

  it('sends progress notifications while a run is waited on with a progressToken', async () => {
    const client = await connect(app.keys.payer);
    const quoted = await callTool(client, 'svc_tool_quote', { slug: 'pii-redact', input: { text: 'x' } });
    const quoteId = QuoteResponse.parse(quoted.structuredContent).quote.quote_id;
    const messages: string[] = [];
    // A worker takes the run a moment after it is queued and finishes it later.
    const worker = (async () => {
      await sleep(200);
      await app.runs.claim(CLIENT_ID, quoteId);
      await sleep(1_300);
      await app.runs.report(CLIENT_ID, quoteId, { event: 'completed', result: PII_RESULT_OF_X });
    })();
    const result = await client.callTool(
      {
        name: 'svc_tool_run',
        arguments: {
          slug: 'pii-redact',
          input: { text: 'x' },
          quote_id: quoteId,
          idempotency_key: 'progress-1',
        },
      },
      undefined,
      { onprogress: (p) => messages.push(p.message ?? '') },
    );
    expect(result.structuredContent).toMatchObject({ status: 'completed' });
    await worker;
    expect(messages).toEqual([
      `run ${quoteId} is queued`,
      `run ${quoteId} is running`,
      `run ${quoteId} is completed`,
    ]);
  });

  it('refuses a describe_only capability with the REST message', async () => {
    const client = await connect(app.keys.quoter);
    const refused = await callTool(client, 'svc_tool_quote', { slug: 'whois', input: {} });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toBeUndefined();
    const rest = await app.fetch('/api/capabilities/whois/quote', {
      method: 'POST',
      headers: { authorization: `Bearer ${app.keys.quoter}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: {} }),
    });
    expect(rest.status).toBe(409);
    expect(firstText(refused)).toBe(await errorOf(rest));
  });

  it('answers bad arguments with an error result carrying the REST 422 message', async () => {
    const client = await connect(app.keys.runner);
    const result = await callTool(client, 'svc_tool_status', { run_id: 'not-a-uuid' });
    expect(result.isError).toBe(true);
    const rest = await app.fetch('/api/capability-runs/not-a-uuid', {
      headers: { authorization: `Bearer ${app.keys.runner}` },
    });
    expect(rest.status).toBe(422);
    expect(firstText(result)).toBe(await errorOf(rest));
    expect(firstText(result)).toMatch(/^run_id: /);

    const extra = await callTool(client, 'svc_tool_status', { run_id: randomUUID(), extra: 1 });
    expect(extra.isError).toBe(true);
    expect(firstText(extra)).toMatch(/extra/);

    const quoter = await connect(app.keys.quoter);
    const badQuote = await callTool(quoter, 'svc_tool_quote', { slug: 'pii-redact', input: {}, quote_id: 1 });
    const restQuote = await app.fetch('/api/capabilities/pii-redact/quote', {
      method: 'POST',
      headers: { authorization: `Bearer ${app.keys.quoter}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: {}, quote_id: 1 }),
    });
    expect(restQuote.status).toBe(422);
    expect(firstText(badQuote)).toBe(await errorOf(restQuote));
  });

  it('answers an unknown tool with a JSON-RPC error (a protocol error, not a tool result)', async () => {
    const client = await connect(app.keys.plain);
    await expect(client.callTool({ name: 'svc_nope', arguments: {} })).rejects.toThrow(
      /unknown tool: svc_nope/,
    );
  });

  it('gives a key without the scope the REST 403 message as an error result', async () => {
    const client = await connect(app.keys.plain);
    const result = await callTool(client, 'svc_account_balance');
    expect(result.isError).toBe(true);
    const rest = await app.fetch('/api/account/balance', {
      headers: { authorization: `Bearer ${app.keys.plain}` },
    });
    expect(rest.status).toBe(403);
    expect(firstText(result)).toBe(await errorOf(rest));
    const billing = await connect(app.keys.billing);
    const balance = await callTool(billing, 'svc_account_balance');
    expect(balance.structuredContent).toEqual(
      await (
        await app.fetch('/api/account/balance', { headers: { authorization: `Bearer ${app.keys.billing}` } })
      ).json(),
    );
  });

  it('creates an upload session and lists artifacts like REST', async () => {
    const uploader = await connect(app.keys.uploader);
    const session = await callTool(uploader, 'svc_upload_session_create', {
      slug: 'pdf-extract-text',
      input: { filename: 'report.pdf', content_type: 'application/pdf', size_bytes: 1234 },
    });
    expect(session.isError).toBeUndefined();
    expect(session.structuredContent).toMatchObject({
      ok: true,
      method: 'PUT',
      upload_url: expect.stringMatching(new RegExp(`^${app.url}/api/capability-uploads/`)),
      upload_token: expect.stringMatching(/^upl_/),
    });
    const runner = await connect(app.keys.runner);
    const crt = await callTool(runner, 'svc_tool_run', { slug: 'crt', input: { apex: 'example.org' } });
    const runId = String(crt.structuredContent?.run_id);
    const reader = await connect(app.issueKey(['artifacts:read']));
    const listed = await callTool(reader, 'svc_tool_artifacts', { run_id: runId });
    expect(listed.isError).toBeUndefined();
    expect(listed.structuredContent).toMatchObject({ ok: true, run_id: runId, status: 'completed' });
  });
});
