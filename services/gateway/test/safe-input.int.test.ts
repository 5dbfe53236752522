import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorResponse, JSON_INPUT_LIMITS } from '@svc/contracts';
import {
  type FetchResult,
  SHARED_STACK_BEFORE_ALL_MS,
  type SharedTestStack,
  sharedTestStack,
  type TestApiKey,
} from '@svc/testkit';
import { z } from 'zod';
import { callTool, connectMcp, firstText } from './mcp/mcp-client';

// Issue 13 findings 2 and 3 against the real platform (gateway, registry, wallet, orchestrator,
// uploads as processes; PostgreSQL and Redis): text with NUL or an unpaired surrogate answered 500
// where PostgreSQL refused it (and its quote 200 "cleared"), and input nested 5,000 levels deep
// answered 503 "orchestrator service is unavailable" (the RPC client's stack overflowed). Every
// route that takes text, REST and MCP, now answers 422 naming the field, before any service call.

jest.setTimeout(180_000);

const ALL_SCOPES = [
  'capabilities:read',
  'capabilities:quote',
  'capabilities:run',
  'billing:read',
  'uploads:write',
];

const BAD_TEXT = [
  ['NUL', 'Mail jane@example.com\u0000', 'must not contain NUL characters'],
  ['an unpaired surrogate', 'Mail jane@example.com \ud800', 'must not contain unpaired UTF-16 surrogates'],
] as const;

// Past the point (~3,000-5,000 levels) where JSON.stringify and BullMQ's job encoding overflow.
const DEEP_LEVELS = 5_000;
const TOO_DEEP = `must not nest arrays and objects more than ${JSON_INPUT_LIMITS.maxDepth} levels deep`;

/**
 * JSON text of `levels` objects inside each other. Written as text: JSON.stringify itself overflows
 * the stack at this depth, as the RPC client did.
 */
function deepJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;
}

/** A text input of each route that takes one, with the field the message must name. */
const TEXT_ROUTES = [
  { slug: 'pii-redact', field: 'text', input: (text: string) => ({ text }) },
  { slug: 'html-to-pdf', field: 'html', input: (html: string) => ({ html: `<p>${html}</p>` }) },
  { slug: 'crt-batch-plan', field: 'apexes[1]', input: (entry: string) => ({ apexes: ['a.com', entry] }) },
] as const;

let stack: SharedTestStack;
let payer: TestApiKey;
let mcp: Client;

beforeAll(async () => {
  // The jest run's shared platform: every request here is refused before any service call.
  stack = await sharedTestStack();
  payer = await stack.createApiKey({ scopes: ALL_SCOPES, balanceUsd: '5' });
  mcp = await connectMcp(stack.gatewayUrl, payer.apiKey);
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  await mcp?.close();
  await stack?.close();
});

function expect422(answer: FetchResult, message: string): void {
  expect({ status: answer.status, body: answer.json }).toEqual({
    status: 422,
    body: { ok: false, error: message },
  });
  expect(ErrorResponse.safeParse(answer.json).success).toBe(true);
}

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<FetchResult> {
  return stack.fetch(path, { method: 'POST', apiKey: payer.apiKey, json: body, headers });
}

/** A POST whose JSON body is given as text (bodies too deep for JSON.stringify). */
function postText(path: string, text: string, headers: Record<string, string> = {}): Promise<FetchResult> {
  return stack.fetch(path, {
    method: 'POST',
    apiKey: payer.apiKey,
    body: text,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
  });
}

const ToolCallAnswer = z.object({
  result: z.object({ isError: z.boolean().optional(), content: z.array(z.object({ text: z.string() })) }),
});

describe.each(BAD_TEXT)('text with %s', (_what, text, reason) => {
  it.each(TEXT_ROUTES)('is refused with 422 by the quote and the run of $slug', async (route) => {
    const input = route.input(text);
    const message = `input.${route.field}: ${reason}`;
    expect422(await post(`/api/capabilities/${route.slug}/quote`, { input }), message);
    const run = { input, quote_id: '8a1c7d0e-2f4b-4c5d-9e6f-7a8b9c0d1e2f' };
    expect422(await post(`/api/capabilities/${route.slug}/run`, run, { 'idempotency-key': 'k-1' }), message);
  });

  it('is refused by the crt run', async () => {
    const answer = await post('/api/capabilities/crt/run', { input: { apex: `example.com${text}` } });
    expect422(answer, `input.apex: ${reason}`);
  });

  it('is refused in an upload session filename', async () => {
    const input = { filename: `report${text}.pdf`, content_type: 'application/pdf', size_bytes: 100 };
    expect422(
      await post('/api/capabilities/pdf-extract-text/upload-session', { input }),
      `input.filename: ${reason}`,
    );
  });

  it('is refused by the MCP search, quote, run and upload-session tools with the same text', async () => {
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['svc_capabilities_search', { q: `certificate${text}` }, `q: ${reason}`],
      ['svc_tool_quote', { slug: 'pii-redact', input: { text } }, `input.text: ${reason}`],
      ['svc_tool_run', { slug: 'pii-redact', input: { text } }, `input.text: ${reason}`],
      [
        'svc_upload_session_create',
        {
          slug: 'pdf-extract-text',
          input: { filename: `a${text}.pdf`, content_type: 'application/pdf', size_bytes: 9 },
        },
        `input.filename: ${reason}`,
      ],
    ];
    for (const [tool, args, message] of calls) {
      const result = await callTool(mcp, tool, args);
      expect({ tool, isError: result.isError, text: firstText(result) }).toEqual({
        tool,
        isError: true,
        text: message,
      });
    }
  });
});

it('refuses a NUL in the search query (public, no key)', async () => {
  const answer = await stack.fetch(`/api/capabilities?q=${encodeURIComponent('certificate\u0000')}`);
  expect422(answer, 'query.q: must not contain NUL characters');
});

it('searches with a surrogate encoded in the URL as any invalid UTF-8: replaced, not a 500', async () => {
  // A URL cannot carry a lone surrogate: its UTF-8 form is invalid and decodes to U+FFFD.
  const answer = await stack.fetch('/api/capabilities?q=certificate%ED%A0%80');
  expect(answer.status).toBe(200);
});

it('refuses the search query with a NUL in a parameter name, without echoing it', async () => {
  expect422(
    await stack.fetch('/api/capabilities?q%00=crt'),
    'query: property names must not contain NUL characters',
  );
});

it('refuses a NUL in the path before routing', async () => {
  expect422(await stack.fetch('/api/capabilities/crt%00'), 'path: must not contain NUL characters');
});

describe(`input nested ${DEEP_LEVELS} levels deep`, () => {
  const input = `{"text":${deepJson(DEEP_LEVELS)}}`;
  const quoteId = '8a1c7d0e-2f4b-4c5d-9e6f-7a8b9c0d1e2f';

  it.each(['pii-redact', 'crt-batch-plan'])(
    'is 422 naming the field, not 503, for the quote and run of %s',
    async (slug) => {
      expect422(
        await postText(`/api/capabilities/${slug}/quote`, `{"input":${input}}`),
        `input.text: ${TOO_DEEP}`,
      );
      const run = `{"input":${input},"quote_id":"${quoteId}"}`;
      const answer = await postText(`/api/capabilities/${slug}/run`, run, { 'idempotency-key': 'k-2' });
      expect422(answer, `input.text: ${TOO_DEEP}`);
    },
  );

  it('is 422 for the crt run', async () => {
    const body = `{"input":{"apex":"example.com","extra":${deepJson(DEEP_LEVELS)}}}`;
    expect422(await postText('/api/capabilities/crt/run', body), `input.extra: ${TOO_DEEP}`);
  });

  it('is an isError result with the same text for the MCP quote and run', async () => {
    for (const tool of ['svc_tool_quote', 'svc_tool_run']) {
      const params = `{"name":"${tool}","arguments":{"slug":"pii-redact","input":${input}}}`;
      const answer = await postText(
        '/mcp',
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${params}}`,
      );
      const { result } = ToolCallAnswer.parse(answer.json);
      expect({ tool, isError: result.isError, text: result.content[0]?.text }).toEqual({
        tool,
        isError: true,
        text: `input.text: ${TOO_DEEP}`,
      });
    }
  });
});

it('answers MCP arguments that are not an object as invalid params (-32602), not "Internal error"', async () => {
  const body =
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"svc_tool_quote","arguments":-16}}';
  const answer = await postText('/mcp', body);
  expect(answer.status).toBe(200);
  const { error } = z
    .object({ error: z.object({ code: z.number(), message: z.string() }) })
    .parse(answer.json);
  expect(error.code).toBe(-32602);
});

it('still quotes ordinary text with emoji (paired surrogates) and control characters other than NUL', async () => {
  const answer = await post('/api/capabilities/pii-redact/quote', {
    input: { text: 'Mail jane@example.com 😀\t\u0001' },
  });
  expect(answer.status).toBe(200);
});
