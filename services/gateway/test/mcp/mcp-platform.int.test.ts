import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  BalanceResponse,
  CrtResult,
  ErrorResponse,
  QuoteResponse,
  RunStartResponse,
  RunStatusResponse,
} from '@svc/contracts';
import { pollUntil, SHARED_STACK_BEFORE_ALL_MS, type TestApiKey } from '@svc/testkit';
import { type SharedPlatform, sharedPlatform } from '../support/shared-platform';
import { callTool, connectMcp, firstText, rawMcpPost, TOOL_NAMES } from './mcp-client';

// The MCP endpoint against the whole platform (real processes, PostgreSQL, Redis, fake CT providers
// on loopback) through the SDK's Client and StreamableHTTPClientTransport: the tools reach the same
// services as REST and answer the same bodies and messages.

jest.setTimeout(120_000);

const ALL = ['capabilities:read', 'capabilities:quote', 'capabilities:run', 'billing:read'];
const PII_TEXT = 'Mail jane.doe@example.com or call +44 20 7946 0958.';

let qf: SharedPlatform;
let payer: TestApiKey;
let reader: TestApiKey;
const clients: Client[] = [];

async function connect(key: TestApiKey): Promise<Client> {
  const client = await connectMcp(qf.stack.gatewayUrl, key.apiKey);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  qf = await sharedPlatform(); // the jest run's platform; this suite's own clients
  payer = await qf.stack.createApiKey({ scopes: ALL, balanceUsd: '5' });
  reader = await qf.stack.createApiKey({ scopes: ['capabilities:read'] });
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await qf?.close();
});

it('lists the nine tools and describes crt exactly as REST does', async () => {
  const client = await connect(reader);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
  const described = await callTool(client, 'svc_capability_describe', { slug: 'crt' });
  const rest = await qf.stack.fetch('/api/capabilities/crt');
  expect(rest.status).toBe(200);
  expect(described.structuredContent).toEqual(rest.json);
});

it('quotes and runs pii-redact (paid) through tools, and the run completes and is charged', async () => {
  const client = await connect(payer);
  const input = { text: PII_TEXT };
  const quoted = await callTool(client, 'svc_tool_quote', { slug: 'pii-redact', input });
  expect(quoted.isError).toBeUndefined();
  const { quote } = QuoteResponse.parse(quoted.structuredContent);
  expect(quote.price_usd).toBe('0.002');
  expect(quote.wallet_clearance.cleared).toBe(true);

  const ran = await callTool(client, 'svc_tool_run', {
    slug: 'pii-redact',
    input,
    quote_id: quote.quote_id,
    idempotency_key: `mcp-int-${quote.quote_id}`,
  });
  expect(ran.isError).toBeUndefined();
  const started = RunStartResponse.parse(ran.structuredContent);
  expect(started.run_id).toBe(quote.quote_id);

  let status = started.status;
  let last: RunStatusResponse | undefined;
  await pollUntil(
    async () => {
      last = RunStatusResponse.parse(
        (await callTool(client, 'svc_tool_status', { run_id: started.run_id })).structuredContent,
      );
      status = last.status;
      return status === 'completed';
    },
    {
      what: `run ${started.run_id} to complete`,
      timeoutMs: 30_000,
      intervalMs: 200,
      detail: () => `last status: ${status}`,
    },
  );
  expect(status).toBe('completed');
  expect(JSON.stringify(last?.result)).not.toContain('jane.doe@example.com');
  const rest = await qf.stack.fetch(`/api/capability-runs/${started.run_id}`, { apiKey: payer.apiKey });
  expect(last).toEqual(rest.json);

  const balance = BalanceResponse.parse((await callTool(client, 'svc_account_balance')).structuredContent);
  const restBalance = await qf.stack.fetch('/api/account/balance', { apiKey: payer.apiKey });
  expect(balance).toEqual(restBalance.json);
});

it("points a paid run without quote_id at svc_tool_quote in the orchestrator's own refusal (issue 23 item 13)", async () => {
  const client = await connect(payer);
  const refused = await callTool(client, 'svc_tool_run', {
    slug: 'pii-redact',
    input: { text: PII_TEXT },
    idempotency_key: 'mcp-int-no-quote-1',
  });
  expect(refused.isError).toBe(true);
  expect(firstText(refused)).toBe(
    'quote_id is required for paid capabilities: quote this input first ' +
      '(svc_tool_quote with the same slug and input, then pass its quote.quote_id to svc_tool_run)',
  );
});

it('runs crt through tools and waits for the result from the (fake) CT providers', async () => {
  const client = await connect(payer);
  const ran = await callTool(client, 'svc_tool_run', {
    slug: 'crt',
    input: { apex: 'example.com', limit: 3 },
    idempotency_key: 'mcp-int-crt-1',
  });
  expect(ran.isError).toBeUndefined();
  const started = RunStartResponse.parse(ran.structuredContent);
  expect(started.status).toBe('completed');
  const result = CrtResult.parse(started.run.result);
  expect(result).toMatchObject({ apex: 'example.com', limit: 3, count: 3, live_hosts_verified: false });
  const replay = await callTool(client, 'svc_tool_run', {
    slug: 'crt',
    input: { apex: 'example.com', limit: 3 },
    idempotency_key: 'mcp-int-crt-1',
  });
  expect(RunStartResponse.parse(replay.structuredContent)).toMatchObject({
    run_id: started.run_id,
    idempotent_replay: true,
  });
});

it('refuses describe_only (whois) and a missing scope with the REST messages', async () => {
  const client = await connect(payer);
  const refused = await callTool(client, 'svc_tool_quote', { slug: 'whois', input: {} });
  expect(refused.isError).toBe(true);
  const rest = await qf.stack.fetch('/api/capabilities/whois/quote', {
    method: 'POST',
    apiKey: payer.apiKey,
    json: { input: {} },
  });
  expect(rest.status).toBe(409);
  expect(firstText(refused)).toBe(ErrorResponse.parse(rest.json).error);

  const limited = await connect(reader);
  const noScope = await callTool(limited, 'svc_account_balance');
  expect(noScope.isError).toBe(true);
  const restNoScope = await qf.stack.fetch('/api/account/balance', { apiKey: reader.apiKey });
  expect(restNoScope.status).toBe(403);
  expect(firstText(noScope)).toBe(ErrorResponse.parse(restNoScope.json).error);
});

it('answers 401 with WWW-Authenticate for no key and a wrong key', async () => {
  const none = await rawMcpPost(qf.stack.gatewayUrl, {});
  expect(none.status).toBe(401);
  expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="mcp"/);
  const wrong = await rawMcpPost(qf.stack.gatewayUrl, { authorization: `Bearer ${payer.apiKey}x` });
  expect(wrong.status).toBe(401);
  expect(wrong.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
});
