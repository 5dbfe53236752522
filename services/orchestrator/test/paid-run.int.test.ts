import { randomUUID } from 'node:crypto';
import { RunRecord } from '@svc/contracts';
import { ConflictError, PaymentRequiredError, ServiceUnavailableError, ValidationError } from '@svc/errors';
import { pollUntil } from '@svc/testkit';
import { runJobId } from '../src/domain/dispatch';
import { orchestratorHandlers } from '../src/handlers/rpc';
import { type InProcessHarness, rejection, startInProcessHarness, WALLET_TIMEOUT_MS } from './harness';
import { sweepOnce } from './sweep-deps';

// The orchestrator's RPC handlers and report consumer run in this process, and so do the real
// handlers of the registry (the published catalog, with its real manifests) and the wallet (quotes,
// holds, settlements), on the same bus of a private stack; PostgreSQL and Redis are real. Nothing of
// ours is mocked.

let h: InProcessHarness;

beforeAll(async () => {
  h = await startInProcessHarness();
});

afterAll(() => h?.close());

/** 1,500 characters: two started blocks of 1,000 → 2 × 0.002 USD. */
const TEXT = `Write to jane.doe@example.com or call +44 20 7946 0958. ${'lorem ipsum '.repeat(120)}`.slice(
  0,
  1_500,
);
const PARSED_INPUT = { text: TEXT, types: ['email', 'phone', 'iban', 'card'], style: 'label' };

describe('orchestrator.startRun (paid)', () => {
  async function quoted(balanceUsd = '1.00', spendCapUsd?: string) {
    const clientId = await h.client({ balanceUsd, ...(spendCapUsd === undefined ? {} : { spendCapUsd }) });
    const quote = await h.quote(clientId, 'pii-redact', { text: TEXT });
    return { clientId, quote };
  }

  it('quote → run: holds the price, queues {run_id, input} as run-<id>-1; claim + completed report → captured', async () => {
    const { clientId, quote } = await quoted();
    const key = `paid-${randomUUID()}`;
    const started = await h.run({
      client_id: clientId,
      slug: 'pii-redact',
      input: { text: TEXT },
      quote_id: quote.quote_id,
      idempotency_key: key,
    });
    const runId = started.run.run_id;
    expect(runId).toBe(quote.quote_id);
    expect(started.replay).toBe(false);
    expect(RunRecord.parse(started.run)).toMatchObject({
      status: 'queued',
      slug: 'pii-redact',
      price_usd: '0.004',
      runtime: 'node',
      attempts: 0,
      waiting_for_runtime: null,
      status_message: 'queued: waiting for a worker',
    });
    expect(started.quote).toMatchObject({ quote_id: runId, price_usd: '0.004' });
    const jobId = runJobId(runId, 1);
    const job = await h.queue('capability.pii-redact').getJob(jobId);
    expect(job?.data).toEqual({ run_id: runId, input: PARSED_INPUT });
    expect(await h.wallet.runLedger({ client_id: clientId, run_id: runId })).toMatchObject({
      held_usd: '0.004',
      charged_usd: '0.00',
      settled: false,
    });

    // The worker's side (claim, then its report) as RPC calls.
    const at = new Date().toISOString();
    await expect(h.orchestrator.claimAttempt({ run_id: runId, job_id: jobId })).resolves.toEqual({
      go: true,
      attempt: 1,
    });
    const result = {
      redacted_text: 'Write to [EMAIL] …',
      findings: [{ type: 'email', start: 9, end: 29, replacement: '[EMAIL]' }],
      counts: { email: 1, phone: 0, iban: 0, card: 0 },
      characters: 1_500,
    };
    await expect(
      h.orchestrator.reportRun({
        event: 'completed',
        run_id: runId,
        job_id: jobId,
        attempt: 1,
        at,
        result,
      }),
    ).resolves.toEqual({ applied: true });
    const row = await h.prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(row).toMatchObject({ status: 'completed', priceMicros: 4_000n });
    // The wallet captures it: the receipt shows the charge.
    await pollUntil(async () => {
      const receipt = await h.orchestrator.receipt({ client_id: clientId, run_id: runId });
      return receipt.ledger.settled;
    });
    const receipt = await h.orchestrator.receipt({ client_id: clientId, run_id: runId });
    expect(receipt).toMatchObject({
      ok: true,
      currency: 'USD',
      run: { run_id: runId, status: 'completed', result },
      quote: { quote_id: runId, price_usd: '0.004' },
      ledger: { held_usd: '0.00', charged_usd: '0.004', settled: true },
    });
    expect(receipt.ledger.lines.map((line) => line.kind)).toEqual(['hold', 'capture']);
  });

  it('402 when the price no longer fits: no run row, and the quote can be used once funds arrive', async () => {
    const { clientId, quote } = await quoted('0.001');
    expect(quote.wallet_clearance.cleared).toBe(false);
    const err = await rejection(
      h.run({
        client_id: clientId,
        slug: 'pii-redact',
        input: { text: TEXT },
        quote_id: quote.quote_id,
        idempotency_key: `poor-${randomUUID()}`,
      }),
    );
    expect(err).toBeInstanceOf(PaymentRequiredError);
    expect(err).toMatchObject({
      status: 402,
      message: expect.stringMatching(/^insufficient balance: the price 0\.004 USD/),
    });
    expect(await h.prisma.run.count({ where: { clientId } })).toBe(0);
    expect(await h.queue('capability.pii-redact').getJob(runJobId(quote.quote_id, 1))).toBeUndefined();
    expect(await h.prisma.ledgerEntry.count({ where: { runId: quote.quote_id } })).toBe(0);

    // A credit arrives (written as the operator CLI would): the same quote now runs.
    await h.prisma.ledgerEntry.create({
      data: { clientId, kind: 'credit', amountMicros: 1_000_000n, note: 'top-up (test)' },
    });
    const retried = await h.run({
      client_id: clientId,
      slug: 'pii-redact',
      input: { text: TEXT },
      quote_id: quote.quote_id,
      idempotency_key: `rich-${randomUUID()}`,
    });
    expect(retried.run).toMatchObject({ run_id: quote.quote_id, status: 'queued', price_usd: '0.004' });
  });

  it('gives 10 concurrent identical paid requests with one key one run and one hold', async () => {
    const { clientId, quote } = await quoted();
    const request = {
      client_id: clientId,
      slug: 'pii-redact',
      input: { text: TEXT },
      quote_id: quote.quote_id,
      idempotency_key: `burst-${randomUUID()}`,
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => h.run(request)));
    expect(new Set(answers.map((answer) => answer.run.run_id))).toEqual(new Set([quote.quote_id]));
    expect(answers.filter((answer) => !answer.replay)).toHaveLength(1);
    expect(await h.prisma.run.count({ where: { clientId } })).toBe(1);
    expect(await h.prisma.ledgerEntry.count({ where: { clientId, kind: 'hold' } })).toBe(1);
  });

  it('replays the same request under the same key; 422 for another request under it', async () => {
    const { clientId, quote } = await quoted();
    const key = `replay-${randomUUID()}`;
    const request = {
      client_id: clientId,
      slug: 'pii-redact',
      quote_id: quote.quote_id,
      idempotency_key: key,
    };
    const first = await h.run({ ...request, input: { text: TEXT } });
    // The same request after defaults: style 'label' is the default.
    const again = await h.run({ ...request, input: { text: TEXT, style: 'label' } });
    expect(again).toEqual({ replay: true, run: first.run, quote: first.quote });

    const other = await rejection(h.run({ ...request, input: { text: TEXT, style: 'mask' } }));
    expect(other).toBeInstanceOf(ValidationError);
    expect(other).toMatchObject({
      message: `Idempotency-Key "${key}" was already used with a different request (run ${first.run.run_id}); send a new key for a new request`,
    });
    // One hold for the run, however often it was asked.
    expect(await h.prisma.ledgerEntry.count({ where: { runId: first.run.run_id } })).toBe(1);
  });

  it('409 for a quote already used by a run; 422 for a quote of another input; no extra run', async () => {
    const { clientId, quote } = await quoted();
    await h.run({
      client_id: clientId,
      slug: 'pii-redact',
      input: { text: TEXT },
      quote_id: quote.quote_id,
      idempotency_key: `first-${randomUUID()}`,
    });
    const reused = await rejection(
      h.run({
        client_id: clientId,
        slug: 'pii-redact',
        input: { text: TEXT },
        quote_id: quote.quote_id,
        idempotency_key: `second-${randomUUID()}`,
      }),
    );
    expect(reused).toBeInstanceOf(ConflictError);
    expect(reused).toMatchObject({
      message: `quote_id ${quote.quote_id} has already been used for a run; quote again`,
    });

    const fresh = await h.quote(clientId, 'pii-redact', { text: TEXT });
    const mismatch = await rejection(
      h.run({
        client_id: clientId,
        slug: 'pii-redact',
        input: { text: `${TEXT}!` },
        quote_id: fresh.quote_id,
        idempotency_key: `other-input-${randomUUID()}`,
      }),
    );
    expect(mismatch).toBeInstanceOf(ValidationError);
    expect(mismatch).toMatchObject({
      message: `quote_id ${fresh.quote_id} was issued for a different input; quote this input again`,
    });
    expect(await h.prisma.run.count({ where: { clientId } })).toBe(1);
  });

  it('422 without Idempotency-Key or without quote_id for a paid capability', async () => {
    const { clientId, quote } = await quoted();
    const noKey = await rejection(
      h.run({ client_id: clientId, slug: 'pii-redact', input: { text: TEXT }, quote_id: quote.quote_id }),
    );
    expect(noKey).toBeInstanceOf(ValidationError);
    expect(noKey).toMatchObject({
      message: 'Idempotency-Key header is required for paid capabilities (price 0.004 USD)',
    });
    const noQuote = await rejection(
      h.run({
        client_id: clientId,
        slug: 'pii-redact',
        input: { text: TEXT },
        idempotency_key: `nq-${randomUUID()}`,
      }),
    );
    expect(noQuote).toBeInstanceOf(ValidationError);
    expect(noQuote).toMatchObject({
      message:
        'quote_id is required for paid capabilities: quote this input first (POST /api/capabilities/pii-redact/quote)',
    });
    expect(await h.prisma.run.count({ where: { clientId } })).toBe(0);
  });
});

describe('a paid run recorded with its hold pending (issue 15)', () => {
  async function quoted(balanceUsd = '1.00') {
    const clientId = await h.client({ balanceUsd });
    const quote = await h.quote(clientId, 'pii-redact', { text: TEXT });
    return { clientId, quote };
  }

  /**
   * The orchestrator's handlers with a wallet whose holdForRun answer never arrives: `never` as if the
   * orchestrator died between recording the run and asking (no hold made), `lost` as if the wallet
   * held the price and its answer was lost (a timeout, a crash after the call).
   */
  function handlersWhoseHold(hold: 'never' | 'lost') {
    const wallet: typeof h.wallet = {
      ...h.wallet,
      holdForRun: async (request) => {
        if (hold === 'lost') await h.wallet.holdForRun(request);
        throw new ServiceUnavailableError(`wallet service did not answer within ${WALLET_TIMEOUT_MS} ms`);
      },
    };
    return orchestratorHandlers({ ...h.handlerDeps(h.bus), wallet });
  }

  async function startPending(hold: 'never' | 'lost', balanceUsd?: string) {
    const { clientId, quote } = await quoted(balanceUsd);
    const request = {
      client_id: clientId,
      slug: 'pii-redact',
      input: { text: TEXT },
      quote_id: quote.quote_id,
      client_type: 'api',
      idempotency_key: `pending-${randomUUID()}`,
    };
    const err = await rejection(
      handlersWhoseHold(hold).startRun(request, { deadline: Date.now() + 10_000, requestId: 'pending' }),
    );
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect(err).toMatchObject({
      message: `wallet service did not answer within ${WALLET_TIMEOUT_MS} ms; run ${quote.quote_id} was recorded but its hold is not confirmed yet: retry with the same Idempotency-Key`,
    });
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id: quote.quote_id } })).toMatchObject({
      holdPending: true,
      status: 'queued',
      dispatches: 0,
      jobId: null,
    });
    expect(await h.queue('capability.pii-redact').getJob(runJobId(quote.quote_id, 1))).toBeUndefined();
    return { clientId, runId: quote.quote_id, request };
  }

  const holds = (runId: string) => h.prisma.ledgerEntry.count({ where: { runId, kind: 'hold' } });

  it.each(['never', 'lost'] as const)(
    'hold %s: the dispatcher confirms it: queued once, held exactly once; a retry replays it',
    async (hold) => {
      const { runId, request } = await startPending(hold);
      expect(await holds(runId)).toBe(hold === 'lost' ? 1 : 0);

      const swept = await sweepOnce(h);
      expect(swept.confirmed).toContain(runId);
      expect(await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
        holdPending: false,
        status: 'queued',
        priceMicros: 4_000n,
        dispatches: 1,
        jobId: runJobId(runId, 1),
      });
      expect((await h.queue('capability.pii-redact').getJob(runJobId(runId, 1)))?.data).toEqual({
        run_id: runId,
        input: PARSED_INPUT,
      });
      expect(await holds(runId)).toBe(1);

      // Another pass and the client's retry with its key change nothing.
      expect((await sweepOnce(h)).confirmed).not.toContain(runId);
      const retried = await h.run(request);
      expect(retried).toMatchObject({
        replay: true,
        run: { run_id: runId, status: 'queued', price_usd: '0.004' },
        quote: { quote_id: runId, price_usd: '0.004' },
      });
      expect(await holds(runId)).toBe(1);
      expect((await h.prisma.run.findUniqueOrThrow({ where: { id: runId } })).dispatches).toBe(1);
    },
  );

  it('a retry with the same key finishes a pending run itself before answering', async () => {
    const { runId, request } = await startPending('never');
    const retried = await h.run(request);
    expect(retried).toMatchObject({ replay: true, run: { run_id: runId, status: 'queued' } });
    expect(await holds(runId)).toBe(1);
    expect(await h.queue('capability.pii-redact').getJob(runJobId(runId, 1))).toBeDefined();
  });

  it('a hold refused when the dispatcher asks (402) undoes the pending run: no row, no hold', async () => {
    const { runId } = await startPending('never', '0.001');
    const swept = await sweepOnce(h);
    expect(swept.undone).toContain(runId);
    expect(await h.prisma.run.count({ where: { id: runId } })).toBe(0);
    expect(await h.prisma.ledgerEntry.count({ where: { runId } })).toBe(0);
  });
});
