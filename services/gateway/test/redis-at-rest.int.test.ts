// Cost: ~3 s on 2 cores on the run's shared platform: two paid runs and a key scan.
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { QuoteResponse, RunStartResponse, RunStatusResponse } from '@svc/contracts';
import {
  type DumpedKey,
  dumpKeysWithPrefix,
  pollUntil,
  SHARED_STACK_BEFORE_ALL_MS,
  type SharedTestStack,
  sharedTestStack,
  type TestApiKey,
} from '@svc/testkit';
import { callTool, connectMcp } from './mcp/mcp-client';
import { getRun, postRun, quoteOk, waitForSettled, waitForStatus } from './quote-first/support';

// Issue 13, finding 9: no personal data at rest in Redis. A pii-redact run over REST (quote, run,
// poll, receipt) and one over MCP, each with its own distinctive e-mail address and text, through
// the whole platform (real processes, PostgreSQL, Redis): the jest run's shared platform, so the scan
// also reads what every other suite left under its prefix. Once both are finished and settled, every
// key under the stack's prefix is read whole, whatever its type (job hashes, the queues' events
// streams, lists, sets, sorted sets, strings), and neither text nor address may appear anywhere:
// the bus seals what it keeps (packages/bus/src/sealing.ts), and finished capability jobs drop
// their payload.

jest.setTimeout(180_000);

const SCOPES = ['capabilities:read', 'capabilities:quote', 'capabilities:run', 'billing:read'];
const tag = randomBytes(4).toString('hex');
/** Distinctive enough that no key name, id or hash could contain it by chance. */
const REST_EMAIL = `ada.lovelace.${tag}@privacy-check.example`;
const REST_MARKER = `zebra-quartz-${tag}`;
const REST_TEXT = `Invoice ${REST_MARKER} for the harbour office: mail ${REST_EMAIL} or call +44 20 7946 0958.`;
const MCP_EMAIL = `grace.hopper.${tag}@privacy-check.example`;
const MCP_MARKER = `marmalade-orbit-${tag}`;
const MCP_TEXT = `Agent note ${MCP_MARKER}: the contract goes to ${MCP_EMAIL} before noon.`;

let stack: SharedTestStack;
let payer: TestApiKey;
let mcp: Client | undefined;

beforeAll(async () => {
  stack = await sharedTestStack();
  payer = await stack.createApiKey({ scopes: SCOPES, balanceUsd: '5' });
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  await mcp?.close();
  await stack?.close();
});

async function runOverRest(): Promise<string> {
  const input = { text: REST_TEXT };
  const quote = await quoteOk(stack, payer.apiKey, 'pii-redact', input);
  const started = await postRun(
    stack,
    payer.apiKey,
    'pii-redact',
    { input, quote_id: quote.quote_id },
    { idempotencyKey: `at-rest-${quote.quote_id}` },
  );
  expect(started.status).toBe(202);
  const { run_id: runId } = RunStartResponse.parse(started.json);
  const done = await waitForStatus(stack, payer.apiKey, runId, 'completed');
  // The flow really ran: the redacted text came back to its owner.
  expect(JSON.stringify(done.result)).toContain(REST_MARKER);
  expect(JSON.stringify(done.result)).not.toContain(REST_EMAIL);
  const receipt = await waitForSettled(stack, payer.apiKey, runId);
  expect(receipt.ledger.charged_usd).toBe(quote.price_usd);
  return runId;
}

async function runOverMcp(): Promise<string> {
  mcp = await connectMcp(stack.gatewayUrl, payer.apiKey);
  const input = { text: MCP_TEXT };
  const quoted = await callTool(mcp, 'svc_tool_quote', { slug: 'pii-redact', input });
  const { quote } = QuoteResponse.parse(quoted.structuredContent);
  const ran = await callTool(mcp, 'svc_tool_run', {
    slug: 'pii-redact',
    input,
    quote_id: quote.quote_id,
    idempotency_key: `at-rest-mcp-${quote.quote_id}`,
  });
  expect(ran.isError).toBeUndefined();
  const { run_id: runId } = RunStartResponse.parse(ran.structuredContent);
  let status = RunStatusResponse.parse(
    (await callTool(mcp, 'svc_tool_status', { run_id: runId })).structuredContent,
  );
  const client = mcp; // the closure does not see `mcp` narrowed
  await pollUntil(
    async () => {
      status = RunStatusResponse.parse(
        (await callTool(client, 'svc_tool_status', { run_id: runId })).structuredContent,
      );
      return status.status === 'completed';
    },
    {
      what: `run ${runId} to complete`,
      timeoutMs: 30_000,
      intervalMs: 200,
      detail: () => `last status: ${status.status}`,
    },
  );
  expect(status.status).toBe('completed');
  expect(JSON.stringify(status.result)).toContain(MCP_MARKER);
  await waitForSettled(stack, payer.apiKey, runId);
  return runId;
}

/** ms: how long a finished job may take to drop its payload (one write after the job completes). */
const DROP_WAIT_MS = 10_000;

it('keeps neither the input text nor the e-mail address of a REST and an MCP run anywhere in Redis', async () => {
  const restRun = await runOverRest();
  const mcpRun = await runOverMcp();
  // Read back once more, as a client polling would: its request and reply pass through Redis too.
  await getRun(stack, payer.apiKey, restRun);

  // Finished capability jobs keep their id and state but no input (dropped just after completion).
  // Job ids are `run-<id>-<hand-over>` (issue 15): each run here was handed over once.
  const jobKeys = [restRun, mcpRun].map((id) => `${stack.prefix}:jobs.capability.pii-redact:run-${id}-1`);
  let jobs: readonly DumpedKey[] = [];
  await pollUntil(
    async () => {
      const dump = await dumpKeysWithPrefix(stack.redisUrl, stack.prefix);
      jobs = dump.filter((entry) => jobKeys.includes(entry.key));
      return jobs.length === 2 && jobs.every((job) => job.text.includes('"dropped"'));
    },
    {
      what: 'finished jobs to drop their payload',
      timeoutMs: DROP_WAIT_MS,
      intervalMs: 200,
      detail: () => `finished jobs still hold a payload: ${JSON.stringify(jobs)}`,
    },
  );

  const dump = await dumpKeysWithPrefix(stack.redisUrl, stack.prefix);
  // Not vacuous: the scan sees the queue the runs went through, its events stream included. (RPC
  // leaves nothing to scan: requests are popped from their list, replies go over pub/sub, issue 15.)
  expect(dump.map((entry) => entry.type)).toEqual(expect.arrayContaining(['hash', 'stream']));
  const names = dump.map((entry) => entry.key);
  expect(names).toContainEqual(`${stack.prefix}:jobs.capability.pii-redact:events`);

  const secrets = [REST_TEXT, REST_EMAIL, REST_MARKER, MCP_TEXT, MCP_EMAIL, MCP_MARKER];
  const found = dump.flatMap((entry) =>
    secrets
      .filter((secret) => entry.key.includes(secret) || entry.text.includes(secret))
      .map((secret) => `${entry.key} (${entry.type}) holds "${secret}"`),
  );
  expect(found).toEqual([]);
});
