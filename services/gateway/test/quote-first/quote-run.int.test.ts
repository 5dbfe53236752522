import { randomUUID } from 'node:crypto';
import {
  BalanceResponse,
  QuoteResponse,
  RunStartResponse,
  SpendDiagnosticsResponse,
  UsageStatementResponse,
} from '@svc/contracts';
import { SHARED_STACK_BEFORE_ALL_MS, type TestApiKey } from '@svc/testkit';
import { type SharedPlatform, sharedPlatform } from '../support/shared-platform';
import {
  errorOf,
  getReceipt,
  plainText,
  postQuote,
  postRun,
  quoteAndRun,
  quoteOk,
  waitForSettled,
  waitForStatus,
} from './support';

// Quote → run over HTTP against the whole platform (real processes, PostgreSQL, Redis): prices,
// clearance, every error of the quote-first flow, replay, owner-only reads, modes, statements.

const ALL = ['capabilities:quote', 'capabilities:run', 'billing:read'];
const PII_TEXT = 'Mail jane.doe@example.com or call +44 20 7946 0958; card 4111 1111 1111 1111.';

// Whole-platform flows with retries and worker restarts take longer than the default 60 s.
jest.setTimeout(120_000);

let qf: SharedPlatform;
let payer: TestApiKey;
let other: TestApiKey;

beforeAll(async () => {
  qf = await sharedPlatform(); // the jest run's platform; this suite's own clients
  payer = await qf.stack.createApiKey({ scopes: ALL, balanceUsd: '5' });
  other = await qf.stack.createApiKey({ scopes: ALL, balanceUsd: '5' });
}, SHARED_STACK_BEFORE_ALL_MS);

afterAll(async () => {
  await qf?.close();
});

describe('quote', () => {
  it('prices pii-redact per started 1,000 characters and clears it against the wallet', async () => {
    const answer = await postQuote(qf.stack, payer.apiKey, 'pii-redact', {
      input: { text: plainText(2_500) },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const { quote } = QuoteResponse.parse(answer.json);
    expect(quote.price_usd).toBe('0.006');
    expect(quote.price_detail).toMatchObject({
      model: 'per_unit',
      unit: '1000_characters',
      units: 3,
      unit_price_usd: '0.002',
    });
    expect(quote.wallet_clearance).toMatchObject({
      cleared: true,
      balance_usd: '5.00',
      held_usd: '0.00',
      spend_cap_usd: null,
      remaining_usd: '5.00',
      remaining_after_usd: '4.994',
    });
    expect(Date.parse(quote.expires_at) - Date.parse(quote.created_at)).toBe(15 * 60_000);
    expect(quote.execution).toMatchObject({
      effective_status: 'supported',
      runtime: 'node',
      worker_available: true,
    });
  });

  it('answers the spec errors: unknown slug, bad input, describe_only, auth', async () => {
    const unknown = await postQuote(qf.stack, payer.apiKey, 'no-such-capability', { input: {} });
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown)).toContain('no-such-capability');

    const missing = await postQuote(qf.stack, payer.apiKey, 'pii-redact', { input: {} });
    expect(missing.status).toBe(422);
    expect(errorOf(missing)).toContain('input.text');

    const extra = await postQuote(qf.stack, payer.apiKey, 'pii-redact', {
      input: { text: 'x', colour: 'red' },
    });
    expect(extra.status).toBe(422);

    const whois = await postQuote(qf.stack, payer.apiKey, 'whois', { input: { domain: 'example.com' } });
    expect(whois.status).toBe(409);
    expect(errorOf(whois)).toContain('describe_only');

    const anonymous = await qf.stack.fetch('/api/capabilities/pii-redact/quote', {
      method: 'POST',
      json: { input: { text: 'x' } },
    });
    expect(anonymous.status).toBe(401);
    const runOnly = await qf.stack.createApiKey({ scopes: ['capabilities:run'], balanceUsd: '1' });
    const forbidden = await postQuote(qf.stack, runOnly.apiKey, 'pii-redact', { input: { text: 'x' } });
    expect(forbidden.status).toBe(403);
    expect(errorOf(forbidden)).toContain('capabilities:quote');
  });
});

describe('run', () => {
  it('runs a paid capability: 202 + Location, completed on a worker, held then captured', async () => {
    const quote = await quoteOk(qf.stack, payer.apiKey, 'pii-redact', { text: PII_TEXT });
    expect(quote.price_usd).toBe('0.002');
    const answer = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input: { text: PII_TEXT }, quote_id: quote.quote_id },
      { idempotencyKey: 'pii-run-happy-1' },
    );
    expect(answer.status).toBe(202);
    const started = RunStartResponse.parse(answer.json);
    expect(started.run_id).toBe(quote.quote_id);
    expect(answer.headers.get('location')).toBe(`/api/capability-runs/${started.run_id}`);
    expect(started.idempotent_replay).toBe(false);

    const done = await waitForStatus(qf.stack, payer.apiKey, started.run_id, 'completed');
    const result = done.result ?? {};
    expect(result.redacted_text).toBe('Mail [EMAIL] or call [PHONE]; card [CARD].');
    expect(JSON.stringify(result)).not.toContain('jane.doe');
    expect(done.price_usd).toBe('0.002');
    expect(done.attempts).toBe(1);
    // Operators see the attempt on the worker's /metrics (HEALTH_PORT).
    const metrics = await (await fetch(`${qf.stack.healthUrl('worker')}/metrics`)).text();
    expect(metrics).toMatch(
      /worker_capability_runs_total\{job="capability.pii-redact",outcome="completed",service="worker"\} [1-9]/,
    );

    const receipt = await waitForSettled(qf.stack, payer.apiKey, started.run_id);
    expect(receipt.ledger.lines.map((line) => [line.kind, line.amount_usd])).toEqual([
      ['hold', '-0.002'],
      ['capture', '-0.002'],
    ]);
    expect(receipt.ledger).toMatchObject({ held_usd: '0.00', charged_usd: '0.002', settled: true });
    expect(receipt.quote?.quote_id).toBe(quote.quote_id);

    // A replay answers the original run; the same key with another input is refused.
    const replay = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input: { text: PII_TEXT }, quote_id: quote.quote_id },
      { idempotencyKey: 'pii-run-happy-1' },
    );
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(RunStartResponse.parse(replay.json)).toMatchObject({
      run_id: started.run_id,
      idempotent_replay: true,
      status: 'completed',
    });
    const reuse = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input: { text: `${PII_TEXT} more` }, quote_id: quote.quote_id },
      { idempotencyKey: 'pii-run-happy-1' },
    );
    expect(reuse.status).toBe(422);
    expect(errorOf(reuse)).toContain('pii-run-happy-1');
    // Still one hold and one capture: nothing moved twice.
    expect((await getReceipt(qf.stack, payer.apiKey, started.run_id)).ledger.lines).toHaveLength(2);

    // Owner only: another client sees the same 404 as for a run that does not exist.
    for (const path of ['', '/receipt']) {
      const foreign = await qf.stack.fetch(`/api/capability-runs/${started.run_id}${path}`, {
        apiKey: other.apiKey,
      });
      expect(foreign.status).toBe(404);
      expect(errorOf(foreign)).toBe(`unknown run: ${started.run_id}`);
    }
    const foreignCancel = await qf.stack.fetch(`/api/capability-runs/${started.run_id}/cancel`, {
      method: 'POST',
      apiKey: other.apiKey,
    });
    expect(foreignCancel.status).toBe(404);

    // A finished run cannot be cancelled.
    const cancel = await qf.stack.fetch(`/api/capability-runs/${started.run_id}/cancel`, {
      method: 'POST',
      apiKey: payer.apiKey,
    });
    expect(cancel.status).toBe(409);
    expect(errorOf(cancel)).toContain('already completed');
  });

  it('runs crt with a quote from the quote endpoint (spec §4 rule 3): the quote becomes the run', async () => {
    const quote = await quoteOk(qf.stack, payer.apiKey, 'crt', { apex: 'Example.com', limit: 5 });
    expect(quote).toMatchObject({ price_usd: '0.00', price_detail: { model: 'free' } });
    const answer = await qf.stack.fetch('/api/capabilities/crt/run', {
      method: 'POST',
      apiKey: payer.apiKey,
      json: { input: { apex: 'example.com', limit: 5 }, quote_id: quote.quote_id },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      run_id: quote.quote_id,
      status: 'completed',
      quote: { quote_id: quote.quote_id },
    });
    // The same quote for another apex is refused: a quote is bound to its input.
    const other = await quoteOk(qf.stack, payer.apiKey, 'crt', { apex: 'example.org' });
    const mismatch = await qf.stack.fetch('/api/capabilities/crt/run', {
      method: 'POST',
      apiKey: payer.apiKey,
      json: { input: { apex: 'example.net' }, quote_id: other.quote_id },
    });
    expect(mismatch.status).toBe(422);
    expect(errorOf(mismatch)).toContain('different input');
  });

  it('requires Idempotency-Key and quote_id for paid runs and checks the quote', async () => {
    const input = { text: 'call 020 7946 0958' };
    const quote = await quoteOk(qf.stack, payer.apiKey, 'pii-redact', input);

    const noKey = await postRun(qf.stack, payer.apiKey, 'pii-redact', { input, quote_id: quote.quote_id });
    expect(noKey.status).toBe(422);
    expect(errorOf(noKey)).toContain('Idempotency-Key');

    const noQuote = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input },
      { idempotencyKey: 'no-quote-1' },
    );
    expect(noQuote.status).toBe(422);
    expect(errorOf(noQuote)).toContain('quote_id');

    const unknownId = '00000000-0000-4000-8000-000000000001';
    const unknownQuote = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input, quote_id: unknownId },
      { idempotencyKey: 'unknown-quote-1' },
    );
    expect(unknownQuote.status).toBe(404);
    expect(errorOf(unknownQuote)).toBe(`unknown quote_id: ${unknownId}`);

    // Another client's quote reads exactly like an unknown one.
    const foreign = await postRun(
      qf.stack,
      other.apiKey,
      'pii-redact',
      { input, quote_id: quote.quote_id },
      { idempotencyKey: 'foreign-quote-1' },
    );
    expect(foreign.status).toBe(404);
    expect(errorOf(foreign)).toBe(`unknown quote_id: ${quote.quote_id}`);

    const otherInput = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input: { text: 'something else' }, quote_id: quote.quote_id },
      { idempotencyKey: 'other-input-1' },
    );
    expect(otherInput.status).toBe(422);
    expect(errorOf(otherInput)).toContain('different input');

    const crtQuote = await quoteOk(qf.stack, payer.apiKey, 'crt', { apex: 'example.com' });
    const otherSlug = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input, quote_id: crtQuote.quote_id },
      { idempotencyKey: 'other-slug-1' },
    );
    expect(otherSlug.status).toBe(422);
    expect(errorOf(otherSlug)).toContain('crt');

    const first = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input, quote_id: quote.quote_id },
      { idempotencyKey: 'quote-once-1' },
    );
    expect(first.status).toBe(202);
    const again = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input, quote_id: quote.quote_id },
      { idempotencyKey: 'quote-once-2' },
    );
    expect(again.status).toBe(409);
    expect(errorOf(again)).toContain('already been used');

    const stale = await quoteOk(qf.stack, payer.apiKey, 'pii-redact', input);
    await qf.prisma.quote.update({
      where: { id: stale.quote_id },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    const expired = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input, quote_id: stale.quote_id },
      { idempotencyKey: 'expired-1' },
    );
    expect(expired.status).toBe(409);
    expect(errorOf(expired)).toContain('expired');
    // None of the refused runs left a row or a ledger line behind.
    for (const id of [unknownId, stale.quote_id, crtQuote.quote_id]) {
      expect(await qf.prisma.run.count({ where: { id } })).toBe(0);
      expect(await qf.prisma.ledgerEntry.count({ where: { runId: id } })).toBe(0);
    }
  });

  it("answers the rest of the generic route's quote_id table (decisions C16): used ids of either client, a crt run id, malformed", async () => {
    const input = { text: 'call 020 7946 0958' };
    const quote = await quoteOk(qf.stack, payer.apiKey, 'pii-redact', input);
    const first = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input, quote_id: quote.quote_id },
      { idempotencyKey: `c16-${randomUUID()}` },
    );
    expect(first.status).toBe(202);
    // The caller's own used quote, with other input: the 409 of a used quote (its input is not looked at).
    const otherInput = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input: { text: 'something else' }, quote_id: quote.quote_id },
      { idempotencyKey: `c16-${randomUUID()}` },
    );
    expect(otherInput.status).toBe(409);
    expect(errorOf(otherInput)).toBe(
      `quote_id ${quote.quote_id} has already been used for a run; quote again`,
    );
    // Another client's used quote, and a UUID another client named a crt run with: an unknown quote.
    const chosen = randomUUID();
    const crt = await qf.stack.fetch('/api/capabilities/crt/run', {
      method: 'POST',
      apiKey: other.apiKey,
      json: { input: { apex: 'example.com' }, quote_id: chosen },
    });
    expect(crt.status).toBe(200);
    for (const [key, id] of [
      [payer, chosen],
      [other, quote.quote_id],
    ] as const) {
      const answer = await postRun(
        qf.stack,
        key.apiKey,
        'pii-redact',
        { input, quote_id: id },
        { idempotencyKey: `c16-${randomUUID()}` },
      );
      expect(answer.status).toBe(404);
      expect(errorOf(answer)).toBe(`unknown quote_id: ${id}`);
    }
    const malformed = await postRun(
      qf.stack,
      payer.apiKey,
      'pii-redact',
      { input, quote_id: 'not-a-uuid' },
      { idempotencyKey: `c16-${randomUUID()}` },
    );
    expect(malformed.status).toBe(422);
    expect(errorOf(malformed)).toMatch(/^quote_id: /);
  });

  it('stops on the wallet: 402 naming the price and the limit, and no run', async () => {
    const poor = await qf.stack.createApiKey({ scopes: ALL, balanceUsd: '0.001' });
    const input = { text: 'short text' };
    const quote = await quoteOk(qf.stack, poor.apiKey, 'pii-redact', input);
    expect(quote.wallet_clearance.cleared).toBe(false);
    expect(quote.wallet_clearance.reason).toContain('0.002');
    const refused = await postRun(
      qf.stack,
      poor.apiKey,
      'pii-redact',
      { input, quote_id: quote.quote_id },
      { idempotencyKey: 'poor-run-1' },
    );
    expect(refused.status).toBe(402);
    const message = errorOf(refused);
    expect(message).toContain('insufficient balance');
    expect(message).toContain('0.002 USD');
    expect(message).toContain('0.001 USD');
    expect(await qf.prisma.run.count({ where: { id: quote.quote_id } })).toBe(0);

    const capped = await qf.stack.createApiKey({ scopes: ALL, balanceUsd: '5', spendCapUsd: '0.003' });
    const firstRun = await quoteAndRun(qf.stack, capped.apiKey, 'pii-redact', input);
    expect(firstRun.status).not.toBe('failed');
    const second = await quoteOk(qf.stack, capped.apiKey, 'pii-redact', input);
    expect(second.wallet_clearance.cleared).toBe(false);
    const overCap = await postRun(
      qf.stack,
      capped.apiKey,
      'pii-redact',
      { input, quote_id: second.quote_id },
      { idempotencyKey: 'capped-run-2' },
    );
    expect(overCap.status).toBe(402);
    const capMessage = errorOf(overCap);
    expect(capMessage).toContain('spend cap');
    expect(capMessage).toContain('0.002 USD');
    expect(capMessage).toContain('0.003 USD');
  });
});

describe('execution modes', () => {
  it('completes a plan_only run at once with the plan and no worker', async () => {
    const input = { apexes: ['Example.com', 'www.example.org', 'example.com', 'openai.com'] };
    const answer = await postRun(qf.stack, payer.apiKey, 'crt-batch-plan', { input });
    expect(answer.status).toBe(200);
    const started = RunStartResponse.parse(answer.json);
    expect(started.status).toBe('completed');
    const plan = started.run.result ?? {};
    expect(plan).toMatchObject({
      server_processing: false,
      counts: { submitted: 4, planned: 2, rejected: 2 },
    });
    expect(started.run.attempts).toBe(0);
    expect(started.run.started_at).toBe(started.run.finished_at);
  });
});

describe('account', () => {
  it('shows balance, usage statement and spend diagnostics that add up', async () => {
    const client = await qf.stack.createApiKey({ scopes: ALL, balanceUsd: '1', spendCapUsd: '0.5' });
    const runs: RunStartResponse[] = [];
    for (const length of [500, 1_500, 2_500]) {
      runs.push(await quoteAndRun(qf.stack, client.apiKey, 'pii-redact', { text: plainText(length) }));
    }
    for (const run of runs) await waitForSettled(qf.stack, client.apiKey, run.run_id);

    const balance = BalanceResponse.parse(
      (await qf.stack.fetch('/api/account/balance', { apiKey: client.apiKey })).json,
    );
    // 0.002 + 0.004 + 0.006
    expect(balance).toMatchObject({
      balance_usd: '0.988',
      held_usd: '0.00',
      spent_usd: '0.012',
      remaining_usd: '0.488',
    });

    const statementAnswer = await qf.stack.fetch('/api/account/usage-statement?limit=2', {
      apiKey: client.apiKey,
    });
    expect(statementAnswer.status).toBe(200);
    const statement = UsageStatementResponse.parse(statementAnswer.json);
    expect(statement.totals).toEqual({ runs: 3, spent_usd: '0.012' });
    expect(statement.by_capability).toEqual([{ slug: 'pii-redact', runs: 3, spent_usd: '0.012' }]);
    expect(statement.lines).toHaveLength(2);
    expect(statement.lines_truncated).toBe(true);

    const badQuery = await qf.stack.fetch('/api/account/usage-statement?month=11', { apiKey: client.apiKey });
    expect(badQuery.status).toBe(422);

    const diagnosticsAnswer = await qf.stack.fetch('/api/account/spend-diagnostics', {
      apiKey: client.apiKey,
    });
    expect(diagnosticsAnswer.status).toBe(200);
    const diagnostics = SpendDiagnosticsResponse.parse(diagnosticsAnswer.json);
    expect(diagnostics.burn_rate.find((window) => window.window === '1h')).toMatchObject({
      spent_usd: '0.012',
      runs: 3,
    });
    expect(diagnostics.top_capabilities[0]).toMatchObject({
      slug: 'pii-redact',
      spent_usd: '0.012',
      share_pct: 100,
    });
    expect(diagnostics.projection.basis_window).toBe('24h');

    const runOnly = await qf.stack.createApiKey({ scopes: ['capabilities:run'] });
    const receiptForbidden = await qf.stack.fetch(`/api/capability-runs/${runs[0]?.run_id}/receipt`, {
      apiKey: runOnly.apiKey,
    });
    expect(receiptForbidden.status).toBe(403);
  });
});
