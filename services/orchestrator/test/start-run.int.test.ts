import { randomUUID } from 'node:crypto';
import { Quote, RunRecord } from '@svc/contracts';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '@svc/errors';
import { pollUntil } from '@svc/testkit';
import { crtRequestHash, inputHash } from '../src/domain/request-hash';
import { type InProcessHarness, rejection, startInProcessHarness } from './harness';

// The orchestrator's RPC handlers and report consumer run in this process, and so do the wallet's
// real ones, on the same bus (a private stack's prefix and database); PostgreSQL and Redis are real.
// Nothing of ours is mocked.

let h: InProcessHarness;

beforeAll(async () => {
  h = await startInProcessHarness();
});

afterAll(() => h?.close());

describe('startCrtRun', () => {
  it('records a queued run with its own zero-price quote (no wallet call) and queues job run-<id>-1', async () => {
    const clientId = randomUUID();
    const answer = await h.start(clientId);
    const runId = answer.run.run_id;

    expect(answer.replay).toBe(false);
    expect(RunRecord.parse(answer.run)).toMatchObject({
      status: 'queued',
      slug: 'crt',
      client_type: 'api',
      quote_id: runId,
      started_at: null,
      finished_at: null,
    });
    expect(Quote.parse(answer.quote)).toMatchObject({
      quote_id: runId,
      slug: 'crt',
      price_usd: '0.00',
      currency: 'USD',
      wallet_clearance: { cleared: true, reason: 'free capability: no funds needed' },
    });

    const row = await h.prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(row).toMatchObject({
      clientId,
      status: 'queued',
      quoteId: runId,
      idempotencyKey: null,
      input: { apex: 'example.com', include_first_seen: false, limit: 100 },
      requestHash: crtRequestHash({
        input: { apex: 'example.com', include_first_seen: false, limit: 100 },
        clientType: 'api',
      }),
      quote: answer.quote,
    });
    expect(row).toMatchObject({ holdPending: false, dispatches: 1, jobId: `run-${runId}-1` });
    expect(row.dispatchedAt).toBeInstanceOf(Date);
    // Built by the orchestrator and kept with the run only: the wallet stored nothing for it.
    expect(await h.prisma.quote.findUnique({ where: { id: runId } })).toBeNull();

    const job = await h.crtQueue.getJob(`run-${runId}-1`);
    expect(job?.data).toEqual({ run_id: runId, apex: 'example.com', include_first_seen: false, limit: 100 });
  });

  it('makes a supplied quote_id, quoted first, the run id its owner sees (a fresh internal id behind it)', async () => {
    const clientId = randomUUID();
    const input = { apex: 'example.org', limit: 5 };
    const { quote_id: quoteId } = await h.quote(clientId, 'crt', input);
    const answer = await h.start(clientId, { quote_id: quoteId, input });
    expect(answer.run.run_id).toBe(quoteId);
    expect(answer.quote?.quote_id).toBe(quoteId);
    const row = await h.prisma.run.findUniqueOrThrow({
      where: { clientId_publicId: { clientId, publicId: quoteId } },
    });
    expect(row.id).not.toBe(quoteId);
    expect((await h.crtQueue.getJob(`run-${row.id}-1`))?.data).toMatchObject({
      run_id: row.id,
      apex: 'example.org',
      limit: 5,
    });
  });

  it('makes any fresh UUID the run id, for every client, and no answer tells one client of the other (decisions C16)', async () => {
    const [alice, bob] = [randomUUID(), randomUUID()];
    const chosen = randomUUID();
    const first = await h.start(alice, { quote_id: chosen });
    const second = await h.start(bob, { quote_id: chosen });
    for (const answer of [first, second]) {
      expect(answer).toMatchObject({
        replay: false,
        run: { run_id: chosen, quote_id: chosen, status: 'queued' },
      });
      expect(answer.quote).toMatchObject({ quote_id: chosen, price_usd: '0.00' });
    }
    // Two runs, one per client, each with its own internal id and job.
    const rows = await h.prisma.run.findMany({ where: { publicId: chosen } });
    expect(rows.map((row) => row.clientId).sort()).toEqual([alice, bob].sort());
    expect(new Set(rows.map((row) => row.id)).size).toBe(2);
    expect(rows.every((row) => row.id !== chosen)).toBe(true);
    // Each reads and cancels its own run under the shared id; the wallet stored no quote for either.
    for (const [clientId, answer] of [
      [alice, first],
      [bob, second],
    ] as const) {
      expect(await h.orchestrator.getRun({ client_id: clientId, run_id: chosen })).toEqual(answer.run);
    }
    expect(await h.prisma.quote.count({ where: { id: chosen } })).toBe(0);
    // The id again, from either: 409 in the same words, about its own run only.
    for (const clientId of [alice, bob]) {
      const again = await rejection(h.start(clientId, { quote_id: chosen }));
      expect(again).toMatchObject({
        status: 409,
        message: `quote_id ${chosen} has already been used for a run; quote again or omit quote_id`,
      });
    }
  });

  it('replays the same request under the same key (after lowercasing and defaults) without new work', async () => {
    const clientId = randomUUID();
    const key = `replay-${randomUUID()}`;
    const first = await h.start(clientId, { idempotency_key: key });
    const again = await h.start(clientId, {
      idempotency_key: key,
      input: { apex: 'EXAMPLE.com', limit: 100, include_first_seen: false },
    });
    expect(again).toEqual({ replay: true, run: first.run, quote: first.quote });
    expect(await h.prisma.run.count({ where: { clientId } })).toBe(1);
  });

  it('answers 422 to a different request under a used key, and scopes keys to the client', async () => {
    const clientId = randomUUID();
    const key = `reuse-${randomUUID()}`;
    const first = await h.start(clientId, { idempotency_key: key });
    const err = await rejection(
      h.start(clientId, { idempotency_key: key, input: { apex: 'example.com', limit: 7 } }),
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({
      status: 422,
      message: `Idempotency-Key "${key}" was already used with a different request (run ${first.run.run_id}); send a new key for a new request`,
    });

    const otherClient = await h.start(randomUUID(), { idempotency_key: key });
    expect(otherClient.replay).toBe(false);
    expect(otherClient.run.run_id).not.toBe(first.run.run_id);
  });

  it('gives 10 concurrent identical requests with one key exactly one run and one job', async () => {
    const clientId = randomUUID();
    const key = `burst-${randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => h.start(clientId, { idempotency_key: key })),
    );
    const runIds = new Set(answers.map((answer) => answer.run.run_id));
    expect(runIds.size).toBe(1);
    expect(answers.filter((answer) => !answer.replay)).toHaveLength(1);
    expect(await h.prisma.run.count({ where: { clientId } })).toBe(1);

    const [runId] = [...runIds];
    const jobs = await h.crtQueue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    expect(jobs.filter((job) => job.data.run_id === runId).map((job) => job.id)).toEqual([`run-${runId}-1`]);
  });

  it('answers 409 to its owner for a quote_id already used for a run', async () => {
    const owner = randomUUID();
    const { quote_id: quoteId } = await h.quote(owner, 'crt', { apex: 'example.com' });
    await h.start(owner, { quote_id: quoteId });
    const err = await rejection(h.start(owner, { quote_id: quoteId, idempotency_key: `q-${randomUUID()}` }));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({
      status: 409,
      message: `quote_id ${quoteId} has already been used for a run; quote again or omit quote_id`,
    });
    expect(await h.prisma.run.count({ where: { clientId: owner, publicId: quoteId } })).toBe(1);
  });

  it("takes another client's quote_id, used or not, as a fresh run id of its own; the owner's quote stays the owner's (C16)", async () => {
    const owner = randomUUID();
    const stranger = randomUUID();
    const used = (await h.quote(owner, 'crt', { apex: 'example.com' })).quote_id;
    await h.start(owner, { quote_id: used });
    const unused = (await h.quote(owner, 'crt', { apex: 'example.com' })).quote_id;
    const unknown = randomUUID();
    for (const quoteId of [used, unused, unknown]) {
      const answer = await h.start(stranger, { quote_id: quoteId, idempotency_key: `s-${randomUUID()}` });
      // The same answer whatever the id is to the owner: a new run under that id, with a quote of its own.
      expect(answer).toMatchObject({ replay: false, run: { run_id: quoteId, quote_id: quoteId } });
      expect(answer.quote).toMatchObject({
        quote_id: quoteId,
        wallet_clearance: { cleared: true, reason: 'free capability: no funds needed' },
      });
    }
    expect(await h.prisma.run.count({ where: { clientId: stranger } })).toBe(3);
    expect(await h.prisma.quote.count({ where: { clientId: stranger } })).toBe(0);
    // The owner's unused quote is still the owner's to run, under its id.
    expect((await h.start(owner, { quote_id: unused })).run.run_id).toBe(unused);
  });

  it('needs no wallet for a free run without a quote: the wallet down, the run is recorded and queued', async () => {
    const clientId = randomUUID();
    await h.stopService('wallet');
    try {
      const answer = await h.start(clientId, { idempotency_key: `no-wallet-${randomUUID()}` });
      expect(answer).toMatchObject({
        replay: false,
        run: { status: 'queued' },
        quote: { price_usd: '0.00' },
      });
      expect(await h.crtQueue.getJob(`run-${answer.run.run_id}-1`)).toBeDefined();
    } finally {
      await h.startService('wallet');
    }
  });

  it('with a quote and the wallet down: 503 naming the wallet, nothing recorded; the retry with the key runs it', async () => {
    const clientId = randomUUID();
    const key = `wallet-down-${randomUUID()}`;
    const { quote_id: quoteId } = await h.quote(clientId, 'crt', { apex: 'example.com' });
    await h.stopService('wallet');
    try {
      // A crt run holds no money: its quote is checked before anything is recorded (decisions C16).
      const err = await rejection(h.start(clientId, { idempotency_key: key, quote_id: quoteId }));
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect(err).toMatchObject({ status: 503, message: expect.stringMatching(/^wallet service /) });
      expect(await h.prisma.run.count({ where: { clientId } })).toBe(0);
    } finally {
      await h.startService('wallet');
    }
    const retried = await h.start(clientId, { idempotency_key: key, quote_id: quoteId });
    expect(retried).toMatchObject({ replay: false, run: { run_id: quoteId, status: 'queued' } });
    const row = await h.prisma.run.findUniqueOrThrow({
      where: { clientId_publicId: { clientId, publicId: quoteId } },
    });
    expect(row).toMatchObject({ holdPending: false, dispatches: 1, jobId: `run-${row.id}-1` });
    expect(await h.crtQueue.getJob(`run-${row.id}-1`)).toBeDefined();
  });
});

describe('startCrtRun with a quote the wallet issued before', () => {
  const input = { apex: 'example.com', include_first_seen: false, limit: 100 };

  async function storeQuote(clientId: string, parts: { inputHash?: string; expiresAt: Date }) {
    const quoteId = randomUUID();
    await h.prisma.quote.create({
      data: {
        id: quoteId,
        clientId,
        slug: 'crt',
        priceMicros: 0n,
        inputHash: parts.inputHash ?? inputHash(input),
        cleared: true,
        clearance: 'free capability: no funds needed',
        createdAt: new Date(parts.expiresAt.getTime() - 15 * 60_000),
        expiresAt: parts.expiresAt,
      },
    });
    return quoteId;
  }

  it('runs under that quote and returns it as stored', async () => {
    const clientId = randomUUID();
    const expiresAt = new Date(Date.now() + 10 * 60_000);
    const quoteId = await storeQuote(clientId, { expiresAt });
    const answer = await h.start(clientId, { quote_id: quoteId, input });
    expect(answer.run.run_id).toBe(quoteId);
    expect(answer.quote).toMatchObject({ quote_id: quoteId, expires_at: expiresAt.toISOString() });
  });

  it('refuses an expired quote (409) or one issued for another input (422), leaving no run', async () => {
    const clientId = randomUUID();
    const expiredAt = new Date(Date.now() - 60_000);
    const expired = await storeQuote(clientId, { expiresAt: expiredAt });
    const err = await rejection(h.start(clientId, { quote_id: expired, input }));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({
      message: `quote_id ${expired} expired at ${expiredAt.toISOString()}; quote again`,
    });

    const other = await storeQuote(clientId, {
      inputHash: 'f'.repeat(64),
      expiresAt: new Date(Date.now() + 60_000),
    });
    const mismatch = await rejection(h.start(clientId, { quote_id: other, input }));
    expect(mismatch).toBeInstanceOf(ValidationError);
    expect(mismatch).toMatchObject({
      message: `quote_id ${other} was issued for a different input; quote this input again`,
    });
    expect(await h.prisma.run.count({ where: { clientId } })).toBe(0);
  });
});

describe('getRun', () => {
  it('shows the run to its owner only: another client gets the same 404 as an unknown run', async () => {
    const owner = randomUUID();
    const { run } = await h.start(owner);
    await expect(h.orchestrator.getRun({ client_id: owner, run_id: run.run_id })).resolves.toEqual(run);

    const stranger = await rejection(h.orchestrator.getRun({ client_id: randomUUID(), run_id: run.run_id }));
    const unknownId = randomUUID();
    const missing = await rejection(h.orchestrator.getRun({ client_id: owner, run_id: unknownId }));
    expect(stranger).toBeInstanceOf(NotFoundError);
    expect(stranger).toMatchObject({ status: 404, message: `unknown run: ${run.run_id}` });
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, message: `unknown run: ${unknownId}` });
  });
});

describe('startRun of a plan_only capability with a quote_id', () => {
  it('is recorded pending, then completed with its plan once the wallet accepted the quote', async () => {
    const clientId = await h.client({});
    const input = { apexes: ['example.com', 'example.org'] };
    const quote = await h.quote(clientId, 'crt-batch-plan', input);
    const answer = await h.run({
      client_id: clientId,
      slug: 'crt-batch-plan',
      input,
      quote_id: quote.quote_id,
      idempotency_key: `plan-${randomUUID()}`,
    });
    expect(answer).toMatchObject({
      replay: false,
      run: { run_id: quote.quote_id, status: 'completed', price_usd: '0.00' },
      quote: { quote_id: quote.quote_id },
    });
    expect(answer.run.result).toMatchObject({ server_processing: false });
    expect(await h.prisma.run.findUniqueOrThrow({ where: { id: quote.quote_id } })).toMatchObject({
      holdPending: false,
      dispatches: 0,
      jobId: null,
    });
    await pollUntil(() =>
      h.finished.some((event) => event.run_id === quote.quote_id && event.status === 'completed'),
    );
  });
});
