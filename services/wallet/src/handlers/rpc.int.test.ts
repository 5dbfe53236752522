import { randomUUID } from 'node:crypto';
import { type Bus, type RpcServer, serveRpc, serviceClient } from '@svc/bus';
import {
  BalanceResponse,
  type PlatformCatalog,
  Quote,
  RunLedger,
  SpendDiagnosticsResponse,
  UsageStatementResponse,
} from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { ConflictError, NotFoundError, PaymentRequiredError, ValidationError } from '@svc/errors';
import { memoryLogger } from '@svc/log';
import { createTestBus, createTestDatabase, type TestBus, type TestDatabase } from '@svc/testkit';
import { walletHandlers } from './rpc';

// `rpc.wallet` end to end inside one process: real Redis queue, real PostgreSQL ledger, the same
// serveRpc/serviceClient pair the gateway uses, so the answer crosses the wire schema both ways.
const NOW = new Date('2026-09-15T12:00:00.000Z');

let database: TestDatabase;
let testBus: TestBus;
let prisma: PrismaClient;
let bus: Bus<PlatformCatalog>;
let server: RpcServer;

beforeAll(async () => {
  database = await createTestDatabase('wallet_rpc');
  prisma = database.prisma;
  testBus = createTestBus('wrt');
  bus = testBus.bus;
  server = serveRpc(
    bus,
    'wallet',
    walletHandlers({ prisma, logger: memoryLogger('wallet').logger, now: () => NOW }),
  );
  await server.waitUntilReady();
});

afterAll(async () => {
  await server?.close();
  await testBus?.close();
  await database?.drop();
});

describe('rpc.wallet', () => {
  it('answers balance with USD strings that match BalanceResponse', async () => {
    const clientId = randomUUID();
    await prisma.walletAccount.create({ data: { clientId, spendCapMicros: 5_000_000n } });
    await prisma.ledgerEntry.createMany({
      data: [
        { clientId, kind: 'credit', amountMicros: 12_500_000n, createdAt: NOW },
        { clientId, kind: 'capture', amountMicros: -4_000n, runId: randomUUID(), createdAt: NOW },
        { clientId, kind: 'hold', amountMicros: -1_000_000n, runId: randomUUID(), createdAt: NOW },
      ],
    });
    const client = serviceClient(bus, 'wallet', { timeoutMs: 5_000 });
    const answer = await client.balance({ client_id: clientId });
    expect(BalanceResponse.parse(answer)).toEqual({
      ok: true,
      client_id: clientId,
      currency: 'USD',
      balance_usd: '12.496',
      held_usd: '1.00',
      spent_usd: '0.004',
      spend_cap_usd: '5.00',
      // min(12.496 - 1, 5 - 0.004 - 1)
      remaining_usd: '3.996',
      period: { start: '2026-09-01T00:00:00.000Z', end: '2026-10-01T00:00:00.000Z' },
    });
  });

  it('answers zeros and a null cap for an unknown client', async () => {
    const clientId = randomUUID();
    const client = serviceClient(bus, 'wallet', { timeoutMs: 5_000 });
    const answer = await client.balance({ client_id: clientId });
    expect(answer).toMatchObject({
      client_id: clientId,
      balance_usd: '0.00',
      held_usd: '0.00',
      spent_usd: '0.00',
      spend_cap_usd: null,
      remaining_usd: '0.00',
    });
  });

  it('issues a zero-price quote that matches Quote, idempotent on quote_id', async () => {
    const clientId = randomUUID();
    const quoteId = randomUUID();
    const asked = {
      quote_id: quoteId,
      client_id: clientId,
      slug: 'crt',
      price_usd: '0',
      input_hash: 'e'.repeat(64),
    };
    const client = serviceClient(bus, 'wallet', { timeoutMs: 5_000 });
    const quote = await client.issueQuote(asked);
    expect(Quote.parse(quote)).toEqual({
      quote_id: quoteId,
      slug: 'crt',
      price_usd: '0.00',
      currency: 'USD',
      wallet_clearance: { cleared: true, reason: 'free capability: no funds needed' },
      created_at: NOW.toISOString(),
      // QUOTE_TTL_MS default: 15 min.
      expires_at: '2026-09-15T12:15:00.000Z',
    });
    await expect(client.issueQuote(asked)).resolves.toEqual(quote);
  });

  it('issues a priced quote with its price detail and every clearance figure', async () => {
    const clientId = randomUUID();
    await prisma.ledgerEntry.create({
      data: { clientId, kind: 'credit', amountMicros: 1_000_000n, createdAt: NOW },
    });
    const client = serviceClient(bus, 'wallet', { timeoutMs: 5_000 });
    const priceDetail = {
      model: 'per_unit' as const,
      unit: '1000_characters',
      units: 2,
      unit_price_usd: '0.002',
      minimum_usd: '0.002',
      minimum_applied: false,
    };
    const quote = await client.issueQuote({
      quote_id: randomUUID(),
      client_id: clientId,
      slug: 'pii-redact',
      price_usd: '0.004',
      input_hash: 'e'.repeat(64),
      price_detail: priceDetail,
    });
    expect(Quote.parse(quote)).toMatchObject({
      price_usd: '0.004',
      price_detail: priceDetail,
      wallet_clearance: {
        cleared: true,
        reason: 'remaining 1.00 USD covers the price 0.004 USD',
        balance_usd: '1.00',
        held_usd: '0.00',
        spend_cap_usd: null,
        spent_usd: '0.00',
        remaining_usd: '1.00',
        remaining_after_usd: '0.996',
      },
    });
  });

  it('sends quote conflicts back as the same error classes (409 other client, 422 other input)', async () => {
    const quoteId = randomUUID();
    const asked = {
      quote_id: quoteId,
      client_id: randomUUID(),
      slug: 'crt',
      price_usd: '0',
      input_hash: 'e'.repeat(64),
    };
    const client = serviceClient(bus, 'wallet', { timeoutMs: 5_000 });
    await client.issueQuote(asked);

    const taken = await client.issueQuote({ ...asked, client_id: randomUUID() }).catch((err: unknown) => err);
    expect(taken).toBeInstanceOf(ConflictError);
    expect(taken).toMatchObject({ status: 409, message: `quote_id ${quoteId} is already in use` });

    const changed = await client
      .issueQuote({ ...asked, input_hash: 'f'.repeat(64) })
      .catch((err: unknown) => err);
    expect(changed).toBeInstanceOf(ValidationError);
    expect(changed).toMatchObject({
      status: 422,
      message: `quote_id ${quoteId} was issued for a different input`,
    });
  });

  it('answers ping', async () => {
    const client = serviceClient(bus, 'wallet', { timeoutMs: 5_000 });
    const answer = await client.ping({});
    expect(answer).toMatchObject({ service: 'wallet', pid: process.pid });
  });
});

describe('rpc.wallet money moves', () => {
  const HASH = 'a'.repeat(64);

  /** A client with `creditMicros` and a pii-redact quote of 0.004 USD (run id = quote id). */
  async function quotedClient(creditMicros: bigint) {
    const clientId = randomUUID();
    await prisma.ledgerEntry.create({
      data: { clientId, kind: 'credit', amountMicros: creditMicros, createdAt: NOW },
    });
    const client = serviceClient(bus, 'wallet', { timeoutMs: 5_000 });
    const quote = await client.issueQuote({
      quote_id: randomUUID(),
      client_id: clientId,
      slug: 'pii-redact',
      price_usd: '0.004',
      input_hash: HASH,
    });
    const hold = {
      client_id: clientId,
      run_id: quote.quote_id,
      quote_id: quote.quote_id,
      slug: 'pii-redact',
      input_hash: HASH,
    };
    return { client, clientId, quote, hold };
  }

  it('holds, answers the run ledger, and settles once through wallet.settle however often it is called', async () => {
    const { client, clientId, quote, hold } = await quotedClient(1_000_000n);
    await expect(client.holdForRun(hold)).resolves.toEqual({ quote, held_usd: '0.004' });
    const open = RunLedger.parse(await client.runLedger({ client_id: clientId, run_id: quote.quote_id }));
    expect(open).toMatchObject({ held_usd: '0.004', charged_usd: '0.00', settled: false });
    expect(open.lines).toEqual([
      expect.objectContaining({
        kind: 'hold',
        amount_usd: '-0.004',
        slug: 'pii-redact',
        run_id: quote.quote_id,
      }),
    ]);

    const capture = {
      run_id: quote.quote_id,
      client_id: clientId,
      outcome: 'capture',
      reason: 'run completed',
    } as const;
    expect(await client.settle(capture)).toEqual({ applied: true });
    // Idempotent: the orchestrator repeats the call until it has an answer recorded.
    expect(await client.settle(capture)).toEqual({ applied: false });
    expect(await client.settle({ ...capture, outcome: 'release', reason: 'run failed' })).toEqual({
      applied: false,
    });
    const settled = await client.runLedger({ client_id: clientId, run_id: quote.quote_id });
    expect(settled).toMatchObject({ held_usd: '0.00', charged_usd: '0.004', settled: true });
    expect(settled.lines.map((line) => [line.kind, line.amount_usd, line.note])).toEqual([
      ['hold', '-0.004', `hold for run ${quote.quote_id}`],
      ['capture', '-0.004', 'run completed'],
    ]);
    expect(await client.balance({ client_id: clientId })).toMatchObject({
      balance_usd: '0.996',
      spent_usd: '0.004',
    });
  });

  it('sends 402 and 404 back as the same error classes', async () => {
    const { client, hold } = await quotedClient(3_000n);
    const refused = await client.holdForRun(hold).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(PaymentRequiredError);
    expect(refused).toMatchObject({
      status: 402,
      message:
        'insufficient balance: the price 0.004 USD exceeds the 0.003 USD available (balance 0.003 USD, 0.00 USD held)',
    });
    const missing = await client
      .holdForRun({ ...hold, client_id: randomUUID() })
      .catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ message: `unknown quote_id: ${hold.quote_id}` });
  });

  it('answers usage statements (limit defaulted, 422 for a reversed period), diagnostics and open holds', async () => {
    const { client, clientId, hold } = await quotedClient(1_000_000n);
    await client.holdForRun(hold);

    const statement = await client.usageStatement({ client_id: clientId });
    expect(UsageStatementResponse.parse(statement)).toMatchObject({
      client_id: clientId,
      period: { start: '2026-09-01T00:00:00.000Z', end: '2026-10-01T00:00:00.000Z' },
      lines: [],
      totals: { runs: 0, spent_usd: '0.00' },
    });
    const reversed = await client
      .usageStatement({
        client_id: clientId,
        from: '2026-09-10T00:00:00Z',
        to: '2026-09-01T00:00:00Z',
      })
      .catch((err: unknown) => err);
    expect(reversed).toBeInstanceOf(ValidationError);

    const diagnostics = await client.spendDiagnostics({ client_id: clientId });
    expect(SpendDiagnosticsResponse.parse(diagnostics)).toMatchObject({
      as_of: NOW.toISOString(),
      held_usd: '0.004',
      projection: { basis_window: null, cap_reached_at: null, balance_empty_at: null },
    });

    const holds = await client.openHolds({ older_than: '2026-09-15T12:00:00.001Z', limit: 1000 });
    expect(holds.holds).toContainEqual({
      run_id: hold.run_id,
      client_id: clientId,
      created_at: NOW.toISOString(),
    });
    const none = await client.openHolds({ older_than: NOW.toISOString(), limit: 1000 });
    expect(none.holds.map((open) => open.run_id)).not.toContain(hold.run_id);
  });
});
