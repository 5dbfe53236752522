import { randomBytes, randomUUID } from 'node:crypto';
import { type Bus, createBus, createRpcClient, type RpcServer, serveRpc } from '@svc/bus';
import { BalanceResponse } from '@svc/contracts';
import {
  createPrismaClient,
  dropDatabase,
  ensureDatabaseExists,
  migrateDatabase,
  type PrismaClient,
} from '@svc/db';
import { createLogger } from '@svc/log';
import { walletHandlers } from './rpc';

// `rpc.wallet` end to end inside one process: real Redis queue, real PostgreSQL ledger, the same
// serveRpc/createRpcClient pair the gateway uses, so the answer crosses the wire schema both ways.
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DB_NAME = `wallet_rpc_${process.pid}_${Date.now()}`;
const PREFIX = `wrt${randomBytes(4).toString('hex')}`;
const NOW = new Date('2026-09-15T12:00:00.000Z');

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

let prisma: PrismaClient;
let bus: Bus;
let server: RpcServer;

beforeAll(async () => {
  await ensureDatabaseExists(databaseUrl(DB_NAME));
  await migrateDatabase(databaseUrl(DB_NAME));
  prisma = createPrismaClient(databaseUrl(DB_NAME));
  bus = createBus({
    redisUrl: REDIS_URL,
    prefix: PREFIX,
    logger: createLogger({ service: 'wallet-test', level: 'silent' }),
  });
  server = serveRpc(bus, 'wallet', walletHandlers({ prisma, now: () => NOW }));
  await server.waitUntilReady();
});

afterAll(async () => {
  await server?.close();
  if (bus) {
    const keys = await bus.redis.keys(`${PREFIX}:*`);
    if (keys.length > 0) await bus.redis.del(...keys);
    await bus.close();
  }
  await prisma?.$disconnect();
  await dropDatabase(databaseUrl(DB_NAME));
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

  it('answers ping', async () => {
    const client = createRpcClient(bus, 'wallet', { timeoutMs: 5_000 });
    const answer = await client.call('ping', {});
    expect(answer).toMatchObject({ service: 'wallet', pid: process.pid });
  });
});
