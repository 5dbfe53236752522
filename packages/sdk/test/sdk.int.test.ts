import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  onePagePdf,
  pollUntil,
  SHARED_STACK_BEFORE_ALL_MS,
  type SharedTestStack,
  sharedTestStack,
} from '@svc/testkit';
import {
  ArtifactIntegrityError,
  CapabilityNotRunnableError,
  DeadlineExceededError,
  PaymentRequiredError,
  type ProgressEvent,
  SvcClient,
  UploadRejectedError,
  ValidationError,
} from '../src';
import { FaultProxy, spyFetch } from './support';

/**
 * The SDK against the jest run's shared platform (real gateway, registry, wallet, orchestrator,
 * uploads, node worker; fake CT providers; no browser worker), through a loopback proxy that records
 * every request and can lose a run's answer or flip a byte of a download.
 */

jest.setTimeout(120_000);

const SCOPES = [
  'capabilities:read',
  'capabilities:quote',
  'capabilities:run',
  'uploads:write',
  'artifacts:read',
  'billing:read',
];
const tag = randomBytes(4).toString('hex');

let stack: SharedTestStack;
let proxy: FaultProxy;
let dir: string;

async function paidClient(options: { fetch?: typeof fetch; direct?: boolean } = {}): Promise<SvcClient> {
  const key = await stack.createApiKey({ scopes: SCOPES, balanceUsd: '5' });
  return new SvcClient({
    baseUrl: options.direct ? stack.gatewayUrl : proxy.url,
    apiKey: key.apiKey,
    retry: { attempts: 4, baseDelayMs: 50, maxDelayMs: 500 },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

beforeAll(async () => {
  stack = await sharedTestStack();
  proxy = await FaultProxy.start(stack.gatewayUrl);
  dir = await mkdtemp(join(tmpdir(), 'svc-sdk-'));
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  await proxy?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the whole flow', () => {
  it('runs a paid capability: describe, quote, run, wait, with progress', async () => {
    const client = await paidClient();
    const events: ProgressEvent[] = [];
    const before = proxy.seen.length;
    const run = await client.run(
      'pii-redact',
      { text: 'Mail jane@example.com' },
      { onProgress: (event) => events.push(event), pollIntervalMs: 100, deadlineMs: 60_000 },
    );
    expect(run.status).toBe('completed');
    expect(JSON.stringify(run.result)).not.toContain('jane@example.com');
    const order = proxy.seen.slice(before).map((seen) => `${seen.method} ${seen.path}`);
    expect(order.slice(0, 3)).toEqual([
      'GET /api/capabilities/pii-redact',
      'POST /api/capabilities/pii-redact/quote',
      'POST /api/capabilities/pii-redact/run',
    ]);
    expect(events.map((event) => event.phase).slice(0, 3)).toEqual(['describe', 'quote', 'start']);
    const states = events.flatMap((event) => (event.phase === 'status' ? [event.status] : []));
    expect(states.at(-1)).toBe('completed');
    expect(new Set(states).size).toBe(states.length);

    const usage = await pollUntil(async () => {
      const statement = await client.usageStatement();
      return statement.totals.runs === 1 && statement;
    });
    expect(usage.lines[0]?.run_id).toBe(run.run_id);
    expect((await client.balance()).spent_usd).toBe(run.price_usd);
  });

  it('runs a file capability: validated upload from a file, run, artifacts, verified download', async () => {
    const client = await paidClient();
    const file = join(dir, 'letter.pdf');
    await writeFile(file, onePagePdf(`Hello from the SDK ${tag}`));
    const uploaded = await client.upload('pdf-extract-text', file);
    expect(uploaded.upload.status).toBe('complete');

    const run = await client.run(
      'pdf-extract-text',
      { upload_id: uploaded.upload.upload_id },
      { pollIntervalMs: 100 },
    );
    expect(run.status).toBe('completed');
    const manifest = await client.artifacts(run.run_id);
    const text = manifest.artifacts.find((artifact) => artifact.name === 'text.txt');
    expect(text).toBeDefined();
    if (!text) return;
    const saved = await client.downloadArtifact(text, join(dir, 'text.txt'));
    expect(saved).toEqual({ path: join(dir, 'text.txt'), sizeBytes: text.size_bytes, sha256: text.sha256 });
    expect(await readFile(saved.path, 'utf8')).toContain(`Hello from the SDK ${tag}`);

    // One flipped byte: refused, and nothing is left on disk.
    proxy.corruptDownloads = true;
    try {
      const target = join(dir, 'corrupt.txt');
      await expect(client.downloadArtifact(text, target)).rejects.toBeInstanceOf(ArtifactIntegrityError);
      expect(existsSync(target)).toBe(false);
    } finally {
      proxy.corruptDownloads = false;
    }
  });

  it('runs crt (fake CT providers) through quote and run', async () => {
    const client = await paidClient();
    const run = await client.run('crt', { apex: `sdk-${tag}.com`, limit: 5 }, { pollIntervalMs: 100 });
    expect(run.status).toBe('completed');
    expect(run.result).toMatchObject({
      status: 'completed',
      apex: `sdk-${tag}.com`,
      live_hosts_verified: false,
    });
  });
});

describe('retries', () => {
  it('a run whose answer was lost is retried with the same key and runs once', async () => {
    const client = await paidClient();
    const input = { text: `Call +49 30 901820 45 (${tag})` };
    const quote = await client.quote('pii-redact', input);
    const before = proxy.seen.length;
    proxy.dropRunAnswers = 1;
    const started = await client.startRun('pii-redact', input, { quoteId: quote.quote_id });
    const posts = proxy.seen
      .slice(before)
      .filter((seen) => seen.method === 'POST' && seen.path.endsWith('/run'));
    expect(posts).toHaveLength(2);
    expect(posts.map((post) => post.idempotencyKey)).toEqual([
      started.idempotencyKey,
      started.idempotencyKey,
    ]);
    expect(started.idempotentReplay).toBe(true);
    expect(started.runId).toBe(quote.quote_id);

    const run = await client.waitForRun(started.runId, { pollIntervalMs: 100 });
    expect(run.status).toBe('completed');
    const usage = await pollUntil(async () => {
      const statement = await client.usageStatement();
      return statement.totals.runs >= 1 && statement;
    });
    expect(usage.totals.runs).toBe(1);
    expect(usage.lines.map((line) => line.run_id)).toEqual([started.runId]);
  });

  it('a 503 before the gateway saw the run is retried with the same key and runs once', async () => {
    const client = await paidClient();
    const before = proxy.seen.length;
    proxy.refuseRunPosts = 2;
    const run = await client.run(
      'pii-redact',
      { text: `Mail joe.${tag}@example.org` },
      { pollIntervalMs: 100 },
    );
    expect(run.status).toBe('completed');
    const posts = proxy
      .matching('POST', /\/pii-redact\/run$/)
      .filter((seen) => proxy.seen.indexOf(seen) >= before);
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((post) => post.idempotencyKey)).size).toBe(1);
    const usage = await pollUntil(async () => {
      const statement = await client.usageStatement();
      return statement.totals.runs >= 1 && statement;
    });
    expect(usage.lines.map((line) => line.run_id)).toEqual([run.run_id]);
  });

  it('a 402 is not retried', async () => {
    const key = await stack.createApiKey({ scopes: SCOPES });
    const spy = spyFetch();
    const client = new SvcClient({ baseUrl: stack.gatewayUrl, apiKey: key.apiKey, fetch: spy.fetch });
    const thrown = await client.run('pii-redact', { text: 'Mail jane@example.com' }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(PaymentRequiredError);
    expect((thrown as PaymentRequiredError).status).toBe(402);
    expect((thrown as PaymentRequiredError).error).toMatch(/USD/);
    expect(spy.seen.filter((line) => line === 'POST /api/capabilities/pii-redact/run')).toHaveLength(1);
  });
});

describe('client rules', () => {
  it('refuses a describe_only capability before any quote', async () => {
    const spy = spyFetch();
    const key = await stack.createApiKey({ scopes: SCOPES, balanceUsd: '5' });
    const client = new SvcClient({ baseUrl: stack.gatewayUrl, apiKey: key.apiKey, fetch: spy.fetch });
    const thrown = await client.run('whois', { domain: 'example.com' }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CapabilityNotRunnableError);
    expect((thrown as CapabilityNotRunnableError).rawStatus).toBe('describe_only');
    expect(spy.seen).toEqual(['GET /api/capabilities/whois']);
    await expect(client.quote('whois', { domain: 'example.com' })).rejects.toBeInstanceOf(
      CapabilityNotRunnableError,
    );
    expect(spy.seen.some((line) => line.endsWith('/quote'))).toBe(false);
  });

  it('a wait that times out cancels the run on the server', async () => {
    // html-to-pdf needs a browser worker, which the shared platform has none of: the run stays queued.
    const client = await paidClient();
    const thrown = await client
      .run('html-to-pdf', { html: `<p>${tag}</p>` }, { deadlineMs: 3_000, pollIntervalMs: 200 })
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(DeadlineExceededError);
    const runId = (thrown as DeadlineExceededError).runId;
    expect(runId).toBeDefined();
    expect((thrown as DeadlineExceededError).cancelError).toBeUndefined();
    expect(proxy.matching('POST', new RegExp(`/api/capability-runs/${runId}/cancel$`))).toHaveLength(1);
    const after = await client.getRun(runId ?? '');
    expect(after.status).toBe('cancelled');
  });

  it('an upload that breaks file_requirements is refused before any byte is sent', async () => {
    const client = await paidClient();
    const csv = join(dir, 'table.csv');
    await writeFile(csv, 'a,b\n1,2\n');
    const before = proxy.seen.length;
    await expect(client.upload('pdf-extract-text', csv)).rejects.toThrow(UploadRejectedError);
    const empty = join(dir, 'empty.pdf');
    await writeFile(empty, '');
    await expect(client.upload('pdf-extract-text', empty)).rejects.toThrow(/empty/);
    const requests = proxy.seen.slice(before).map((seen) => `${seen.method} ${seen.path}`);
    expect(requests.every((line) => line === 'GET /api/capabilities/pdf-extract-text')).toBe(true);
  });
});

describe('listing runs', () => {
  it("pages through the client's runs newest first, filters them, and iterates over every page", async () => {
    const client = await paidClient();
    // crt is free and answers at once: three finished runs, oldest first.
    const started: string[] = [];
    for (const n of [1, 2, 3]) {
      const run = await client.run('crt', { apex: `list${n}-${tag}.com`, limit: 1 }, { pollIntervalMs: 100 });
      started.push(run.run_id);
    }
    const newestFirst = [...started].reverse();

    const first = await client.listRuns({ limit: 2 });
    expect(first.runs.map((run) => run.run_id)).toEqual(newestFirst.slice(0, 2));
    expect(first.runs[0]).toMatchObject({ slug: 'crt', status: 'completed', client_type: 'sdk' });
    expect(first.next_cursor).not.toBeNull();
    const second = await client.listRuns({ limit: 2, cursor: first.next_cursor ?? '' });
    expect(second.runs.map((run) => run.run_id)).toEqual(newestFirst.slice(2));
    expect(second.next_cursor).toBeNull();

    const all: string[] = [];
    for await (const run of client.iterateRuns({ limit: 1, state: 'completed' })) all.push(run.run_id);
    expect(all).toEqual(newestFirst);
    expect((await client.listRuns({ capability: 'pii-redact' })).runs).toEqual([]);

    // Another client never sees them.
    const other = await paidClient();
    expect((await other.listRuns()).runs).toEqual([]);
  });

  it('checks the query before any request; a cursor that is not a next_cursor is the server’s 422', async () => {
    const { fetch: spy, seen } = spyFetch();
    const client = await paidClient({ fetch: spy, direct: true });
    await expect(client.listRuns({ limit: 0 })).rejects.toBeInstanceOf(ValidationError);
    await expect(client.listRuns({ state: 'sleeping' as never })).rejects.toThrow(/state/);
    expect(seen).toEqual([]);
    const refused = await client.listRuns({ cursor: 'not-a-cursor' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).status).toBe(422);
  });
});
