import { randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import { PaymentRequiredError } from '@svc/errors';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { getBalance } from './balance';
import { holdForRun } from './holds';
import { issueQuote } from './quotes';
import { settleRun } from './settle';

// The per-client lock under load (design "Wallet"): a spend cap with room for exactly 10 holds,
// 50 holds at once on a pool of 12 connections, then capture/release twice each. Real PostgreSQL.
const USD = 1_000_000n;
const PRICE = 4_000n; // 0.004 USD
const CAP = 10n * PRICE; // room for exactly 10 holds
const HOLDS = 50;
const NOW = new Date('2026-09-15T12:00:00.000Z');
const HASH = 'e'.repeat(64);

let database: TestDatabase;
let pool: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase('wallet_concurrency');
  // ≥ 10 connections, so the holds really run side by side and only the lock orders them.
  pool = createPrismaClient(database.url, { max: 12 });
});

afterAll(async () => {
  await pool?.$disconnect();
  await database?.drop();
});

describe('50 concurrent holds against a cap with room for 10', () => {
  const clientId = randomUUID();
  let held: string[] = [];

  beforeAll(async () => {
    await database.prisma.walletAccount.create({ data: { clientId, spendCapMicros: CAP } });
    await database.prisma.ledgerEntry.create({
      data: { clientId, kind: 'credit', amountMicros: USD, createdAt: NOW },
    });
  });

  it('accepts exactly 10; the other 40 get 402 naming the cap; held = 10 × price', async () => {
    const runIds = Array.from({ length: HOLDS }, () => randomUUID());
    const quotes = await Promise.all(
      runIds.map((quoteId) =>
        issueQuote(
          pool,
          { quoteId, clientId, slug: 'pii-redact', priceMicros: PRICE, inputHash: HASH },
          { ttlMs: 15 * 60_000, now: NOW },
        ),
      ),
    );
    // Every quote was cleared on its own: quotes reserve nothing.
    expect(quotes.every((quote) => quote.cleared)).toBe(true);

    const outcomes = await Promise.allSettled(
      runIds.map((runId) =>
        holdForRun(
          pool,
          { clientId, runId, quoteId: runId, slug: 'pii-redact', inputHash: HASH },
          { now: NOW },
        ),
      ),
    );
    held = runIds.filter((_, i) => outcomes[i]?.status === 'fulfilled');
    const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(held).toHaveLength(10);
    expect(refusals).toHaveLength(40);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(PaymentRequiredError);
      expect(refusal).toMatchObject({
        status: 402,
        message:
          'spend cap exceeded: the price 0.004 USD exceeds the 0.00 USD left of the 0.04 USD monthly spend cap (0.00 USD spent, 0.04 USD held)',
      });
    }

    const holds = await pool.ledgerEntry.aggregate({
      where: { clientId, kind: 'hold' },
      _sum: { amountMicros: true },
      _count: true,
    });
    expect(holds).toEqual({ _sum: { amountMicros: -10n * PRICE }, _count: 10 });
    expect(await getBalance(pool, clientId, { now: NOW })).toMatchObject({
      balanceMicros: USD,
      heldMicros: 10n * PRICE,
      spentMicros: 0n,
      remainingMicros: 0n,
    });
  });

  it('settles: capture 5 and release 5, twice each at once, applied once per run; adds up to the micro-USD', async () => {
    expect(held).toHaveLength(10);
    const captured = held.slice(0, 5);
    const released = held.slice(5);
    const settle = (runId: string, outcome: 'capture' | 'release') =>
      settleRun(
        pool,
        { runId, clientId, outcome, reason: `run ${outcome === 'capture' ? 'completed' : 'failed'}` },
        { now: NOW },
      );
    const results = await Promise.all([
      ...captured.flatMap((runId) => [settle(runId, 'capture'), settle(runId, 'capture')]),
      ...released.flatMap((runId) => [settle(runId, 'release'), settle(runId, 'release')]),
    ]);
    expect(results.filter((result) => result.applied)).toHaveLength(10);

    // A release after the capture of the same run (and the reverse) changes nothing.
    for (const runId of captured) await expect(settle(runId, 'release')).resolves.toEqual({ applied: false });
    for (const runId of released) await expect(settle(runId, 'capture')).resolves.toEqual({ applied: false });

    const byKind = await pool.ledgerEntry.groupBy({
      by: ['kind'],
      where: { clientId },
      _sum: { amountMicros: true },
      _count: true,
      orderBy: { kind: 'asc' },
    });
    expect(byKind).toEqual([
      { kind: 'credit', _sum: { amountMicros: USD }, _count: 1 },
      { kind: 'hold', _sum: { amountMicros: -10n * PRICE }, _count: 10 },
      { kind: 'capture', _sum: { amountMicros: -5n * PRICE }, _count: 5 },
      { kind: 'release', _sum: { amountMicros: 5n * PRICE }, _count: 5 },
    ]);
    expect(await getBalance(pool, clientId, { now: NOW })).toMatchObject({
      balanceMicros: USD - 5n * PRICE, // 0.98 USD
      heldMicros: 0n,
      spentMicros: 5n * PRICE, // 0.02 USD
      // min(0.98, 0.04 − 0.02 − 0)
      remainingMicros: CAP - 5n * PRICE,
    });
  });
});
