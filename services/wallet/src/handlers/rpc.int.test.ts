import { randomUUID } from 'node:crypto';
import { type Bus, createRpcClient, type RpcServer, serveRpc } from '@svc/bus';
import { BalanceResponse, Quote } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { ConflictError, ValidationError } from '@svc/errors';
import { createTestBus, createTestDatabase, type TestBus, type TestDatabase } from '@svc/testkit';
import { walletHandlers } from './rpc';

// `rpc.wallet` end to end inside one process: real Redis queue, real PostgreSQL ledger, the same
// serveRpc/createRpcClient pair the gateway uses, so the answer crosses the wire schema both ways.
const NOW = new Date('2026-09-15T12:00:00.000Z');

let database: TestDatabase;
let testBus: TestBus;
let prisma: PrismaClient;
let bus: Bus;
let server: RpcServer;

beforeAll(async () => {
  database = await createTestDatabase('wallet_rpc');
  prisma = database.prisma;
  testBus = createTestBus('wrt');
  bus = testBus.bus;
  server = serveRpc(bus, 'wallet', walletHandlers({ prisma, now: () => NOW }));
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
    const client = createRpcClient(bus, 'wallet', { timeoutMs: 5_000 });
    const answer = await client.call('balance', { client_id: clientId });
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
    const client = createRpcClient(bus, 'wallet', { timeoutMs: 5_000 });
    const answer = await client.call('balance', { client_id: clientId });
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
    const client = createRpcClient(bus, 'wallet', { timeoutMs: 5_000 });
    const quote = await client.call('issueQuote', asked);
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
    await expect(client.call('issueQuote', asked)).resolves.toEqual(quote);
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
    const client = createRpcClient(bus, 'wallet', { timeoutMs: 5_000 });
    await client.call('issueQuote', asked);

    const taken = await client
      .call('issueQuote', { ...asked, client_id: randomUUID() })
      .catch((err: unknown) => err);
    expect(taken).toBeInstanceOf(ConflictError);
    expect(taken).toMatchObject({ status: 409, message: `quote_id ${quoteId} is already in use` });

    const changed = await client
      .call('issueQuote', { ...asked, input_hash: 'f'.repeat(64) })
      .catch((err: unknown) => err);
    expect(changed).toBeInstanceOf(ValidationError);
    expect(changed).toMatchObject({
      status: 422,
      message: `quote_id ${quoteId} was issued for a different input`,
    });
  });

  it('answers ping', async () => {
    const client = createRpcClient(bus, 'wallet', { timeoutMs: 5_000 });
    const answer = await client.call('ping', {});
    expect(answer).toMatchObject({ service: 'wallet', pid: process.pid });
  });
});
