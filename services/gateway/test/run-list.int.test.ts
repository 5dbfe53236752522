import { randomUUID } from 'node:crypto';
import { createBus, type ServiceClient, serviceClient } from '@svc/bus';
import {
  DailySpendResponse,
  ErrorResponse,
  ListRunsResponse,
  type PlatformCatalog,
  platformCatalog,
  QuoteResponse,
  RunCountsResponse,
  RunReceiptResponse,
  RunStatusResponse,
  type RunSummary,
  RunTimelineResponse,
} from '@svc/contracts';
import { createLogger } from '@svc/log';
import {
  pollUntil,
  SHARED_STACK_BEFORE_ALL_MS,
  type SharedTestStack,
  sharedTestStack,
  type TestApiKey,
} from '@svc/testkit';

/**
 * GET /api/capability-runs on the jest run's shared platform (real gateway, orchestrator, wallet,
 * worker, PostgreSQL, fake CT providers), and the dashboard's RPCs behind it (orchestrator.runCounts,
 * runTimeline, wallet.dailySpend): two clients of this suite's own, whose runs never mix.
 */

const SCOPES = ['capabilities:read', 'capabilities:quote', 'capabilities:run', 'billing:read'];

describe('run list (integration, shared platform)', () => {
  let stack: SharedTestStack;
  let bus: ReturnType<typeof createBus<typeof platformCatalog>>;
  let orchestrator: ServiceClient<PlatformCatalog, 'orchestrator'>;
  let wallet: ServiceClient<PlatformCatalog, 'wallet'>;
  let alice: TestApiKey;
  let bob: TestApiKey;
  const aliceCrt: string[] = [];
  const bobRuns: string[] = [];
  let alicePaid = '';

  async function runCrt(key: TestApiKey): Promise<string> {
    const answer = await stack.fetch('/api/capabilities/crt/run', {
      method: 'POST',
      apiKey: key.apiKey,
      json: { input: { apex: `runs-${randomUUID().slice(0, 8)}.com`, limit: 5 } },
    });
    expect([200, 202]).toContain(answer.status);
    // 200 (completed: CrtRunResponse) or 202 (RunStatusResponse): both carry run_id.
    return RunStatusResponse.shape.run_id.parse((answer.json as { run_id?: unknown }).run_id);
  }

  async function listAll(key: TestApiKey, query: string): Promise<RunSummary[]> {
    const runs: RunSummary[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages += 1) {
      const path: string = `/api/capability-runs?${query}${cursor === null ? '' : `&cursor=${cursor}`}`;
      const page = await stack.fetch(path, { apiKey: key.apiKey });
      expect(page.status).toBe(200);
      const body = ListRunsResponse.parse(page.json);
      runs.push(...body.runs);
      cursor = body.next_cursor;
      if (cursor === null) return runs;
    }
    throw new Error(`more than 20 pages for ${query}`);
  }

  beforeAll(async () => {
    stack = await sharedTestStack();
    bus = createBus({
      catalog: platformCatalog,
      redisUrl: stack.redisUrl,
      prefix: stack.prefix,
      logger: createLogger({ service: 'test-run-list', level: 'silent' }),
      encryptionKeys: stack.busEncryptionKeys,
    });
    orchestrator = serviceClient(bus, 'orchestrator', { timeoutMs: 10_000 });
    wallet = serviceClient(bus, 'wallet', { timeoutMs: 10_000 });
    alice = await stack.createApiKey({ scopes: SCOPES, balanceUsd: '5' });
    bob = await stack.createApiKey({ scopes: SCOPES });
    // Interleaved, so the two clients' runs sit between each other in time.
    for (let index = 0; index < 5; index += 1) {
      aliceCrt.push(await runCrt(alice));
      if (index < 2) bobRuns.push(await runCrt(bob));
    }
    // One paid run for the daily spend: quote, run, wait until completed and settled.
    const input = { text: 'Mail jane@example.com' };
    const quoted = await stack.fetch('/api/capabilities/pii-redact/quote', {
      method: 'POST',
      apiKey: alice.apiKey,
      json: { input },
    });
    expect(quoted.status).toBe(200);
    const quote = QuoteResponse.parse(quoted.json).quote;
    const started = await stack.fetch('/api/capabilities/pii-redact/run', {
      method: 'POST',
      apiKey: alice.apiKey,
      json: { input, quote_id: quote.quote_id },
      headers: { 'Idempotency-Key': `run-list-${randomUUID()}` },
    });
    expect([200, 202]).toContain(started.status);
    alicePaid = quote.quote_id;
    await pollUntil(
      async () => {
        const receipt = await stack.fetch(`/api/capability-runs/${alicePaid}/receipt`, {
          apiKey: alice.apiKey,
        });
        const body = RunReceiptResponse.parse(receipt.json);
        return body.run.status === 'completed' && body.ledger.settled;
      },
      { what: `paid run ${alicePaid} to complete and settle`, timeoutMs: 30_000, intervalMs: 100 },
    );
  }, SHARED_STACK_BEFORE_ALL_MS + 60_000);
  afterAll(async () => {
    await bus?.close();
    await stack?.close();
  });

  it("cursor pages cover every run of the key's client exactly once, newest first; another client's never appear", async () => {
    const runs = await listAll(alice, 'limit=2');
    const ids = runs.map((run) => run.run_id);
    expect([...ids].sort()).toEqual([...aliceCrt, alicePaid].sort());
    expect(new Set(ids).size).toBe(ids.length);
    for (const theirs of bobRuns) expect(ids).not.toContain(theirs);
    const order = runs.map((run) => [run.created_at, run.run_id].join(' '));
    expect(order).toEqual([...order].sort().reverse());
    // Bob sees his own two only.
    expect((await listAll(bob, 'limit=1')).map((run) => run.run_id).sort()).toEqual([...bobRuns].sort());
  });

  it("another client's cursor only continues that client's own list", async () => {
    const first = await stack.fetch('/api/capability-runs?limit=1', { apiKey: alice.apiKey });
    const cursor = ListRunsResponse.parse(first.json).next_cursor;
    expect(cursor).not.toBeNull();
    const asBob = await stack.fetch(`/api/capability-runs?cursor=${cursor}`, { apiKey: bob.apiKey });
    expect(asBob.status).toBe(200);
    const seen = ListRunsResponse.parse(asBob.json).runs.map((run) => run.run_id);
    for (const id of seen) expect(bobRuns).toContain(id);
  });

  it('filters by capability and state; refuses a forged cursor with 422', async () => {
    const crt = await listAll(alice, 'capability=crt&limit=100');
    expect(crt.map((run) => run.run_id).sort()).toEqual([...aliceCrt].sort());
    const paid = await listAll(alice, 'capability=pii-redact&state=completed');
    expect(paid.map((run) => [run.run_id, run.status])).toEqual([[alicePaid, 'completed']]);
    expect(await listAll(alice, 'state=queued')).toEqual([]);
    const forged = Buffer.from(`1.${randomUUID()}x`).toString('base64url');
    const refused = await stack.fetch(`/api/capability-runs?cursor=${forged}`, { apiKey: alice.apiKey });
    expect(refused.status).toBe(422);
    expect(ErrorResponse.parse(refused.json).error).toBe('cursor: must be a next_cursor of a previous page');
  });

  it('orchestrator.runCounts and runTimeline answer for the owner only', async () => {
    const counts = RunCountsResponse.parse(await orchestrator.runCounts({ client_id: alice.clientId }));
    expect(counts).toEqual({
      counts: { queued: 0, running: 0, retrying: 0, completed: 6, failed: 0, cancelled: 0 },
      total: 6,
    });
    const timeline = RunTimelineResponse.parse(
      await orchestrator.runTimeline({ client_id: alice.clientId, run_id: alicePaid }),
    );
    expect(timeline.status).toBe('completed');
    expect(timeline.events.map((event) => event.event)).toEqual([
      'recorded',
      'dispatched',
      'started',
      'finished',
      'settled',
    ]);
    await expect(
      orchestrator.runTimeline({ client_id: bob.clientId, run_id: alicePaid }),
    ).rejects.toMatchObject({ status: 404, message: `unknown run: ${alicePaid}` });
  });

  it("wallet.dailySpend puts the paid run's capture on its UTC day", async () => {
    const receipt = RunReceiptResponse.parse(
      (await stack.fetch(`/api/capability-runs/${alicePaid}/receipt`, { apiKey: alice.apiKey })).json,
    );
    const capture = receipt.ledger.lines.find((line) => line.kind === 'capture');
    if (capture === undefined) throw new Error('the paid run has no capture line');
    const series = DailySpendResponse.parse(await wallet.dailySpend({ client_id: alice.clientId, days: 7 }));
    expect(series.days).toHaveLength(7);
    expect(series.total_usd).toBe(receipt.ledger.charged_usd);
    expect(series.runs).toBe(1);
    expect(series.days.filter((day) => day.runs > 0)).toEqual([
      { date: capture.created_at.slice(0, 10), spent_usd: receipt.ledger.charged_usd, runs: 1 },
    ]);
    const none = DailySpendResponse.parse(await wallet.dailySpend({ client_id: bob.clientId, days: 7 }));
    expect(none.runs).toBe(0);
  });
});
