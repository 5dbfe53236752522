import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@svc/db';
import { ConflictError, ValidationError } from '@svc/errors';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { quoteRequest } from '../../test/ledger-fixtures';
import { FREE_CLEARANCE_REASON } from './clearance';
import { issueQuote, type QuoteRequest } from './quotes';

// wallet.quotes on a real, migrated PostgreSQL (a fresh database, dropped afterwards).
const USD = 1_000_000n;
const NOW = new Date('2026-09-15T12:00:00.000Z');
const TTL_MS = 15 * 60_000;
const HASH = 'c'.repeat(64);

let database: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase('wallet_quotes');
  prisma = database.prisma;
});

afterAll(() => database?.drop());

function request(parts: Partial<QuoteRequest> = {}): QuoteRequest {
  return quoteRequest(HASH, parts);
}

describe('issueQuote (wallet.quotes)', () => {
  it('stores a free quote, cleared, expiring QUOTE_TTL_MS after it was issued', async () => {
    const asked = request();
    const quote = await issueQuote(prisma, asked, { ttlMs: TTL_MS, now: NOW });
    expect(quote).toEqual({
      id: asked.quoteId,
      clientId: asked.clientId,
      slug: 'crt',
      priceMicros: 0n,
      inputHash: HASH,
      cleared: true,
      clearance: FREE_CLEARANCE_REASON,
      // No ledger read for a free quote: the clearance carries no figures.
      detail: { wallet_clearance: { cleared: true, reason: FREE_CLEARANCE_REASON }, used_by_run: false },
      createdAt: NOW,
      expiresAt: new Date('2026-09-15T12:15:00.000Z'),
    });
    expect(await prisma.quote.findUnique({ where: { id: asked.quoteId } })).toEqual(quote);
  });

  it('returns the stored quote when asked again (a later clock does not re-issue it)', async () => {
    const asked = request();
    const first = await issueQuote(prisma, asked, { ttlMs: TTL_MS, now: NOW });
    const again = await issueQuote(prisma, asked, { ttlMs: TTL_MS, now: new Date('2026-09-15T13:00:00Z') });
    expect(again).toEqual(first);
    expect(await prisma.quote.count({ where: { id: asked.quoteId } })).toBe(1);
  });

  it('gives concurrent identical requests one row and the same quote', async () => {
    const asked = request();
    const quotes = await Promise.all(
      Array.from({ length: 8 }, () => issueQuote(prisma, asked, { ttlMs: TTL_MS, now: NOW })),
    );
    for (const quote of quotes) expect(quote).toEqual(quotes[0]);
    expect(await prisma.quote.count({ where: { id: asked.quoteId } })).toBe(1);
  });

  it('answers 409 to another client and 422 to a different input, changing nothing', async () => {
    const asked = request();
    const stored = await issueQuote(prisma, asked, { ttlMs: TTL_MS, now: NOW });
    await expect(
      issueQuote(prisma, { ...asked, clientId: randomUUID() }, { ttlMs: TTL_MS, now: NOW }),
    ).rejects.toEqual(new ConflictError(`quote_id ${asked.quoteId} is already in use`));
    await expect(
      issueQuote(prisma, { ...asked, inputHash: 'd'.repeat(64) }, { ttlMs: TTL_MS, now: NOW }),
    ).rejects.toEqual(new ValidationError(`quote_id ${asked.quoteId} was issued for a different input`));
    expect(await prisma.quote.findUnique({ where: { id: asked.quoteId } })).toEqual(stored);
  });

  it('clears a priced quote against the ledger, and stores a refused one with the reason', async () => {
    const clientId = randomUUID();
    await prisma.ledgerEntry.create({
      data: { clientId, kind: 'credit', amountMicros: 2n * USD, createdAt: NOW },
    });
    const priceDetail = { model: 'flat' as const };

    const covered = await issueQuote(prisma, request({ clientId, priceMicros: 1_500_000n, priceDetail }), {
      ttlMs: TTL_MS,
      now: NOW,
    });
    expect(covered).toMatchObject({
      cleared: true,
      clearance: 'remaining 2.00 USD covers the price 1.50 USD',
      detail: {
        wallet_clearance: {
          cleared: true,
          reason: 'remaining 2.00 USD covers the price 1.50 USD',
          balance_usd: '2.00',
          held_usd: '0.00',
          spend_cap_usd: null,
          spent_usd: '0.00',
          remaining_usd: '2.00',
          remaining_after_usd: '0.50',
        },
        price_detail: priceDetail,
      },
    });

    const refused = await issueQuote(prisma, request({ clientId, priceMicros: 3n * USD }), {
      ttlMs: TTL_MS,
      now: NOW,
    });
    const reason =
      'insufficient balance: the price 3.00 USD would exceed the 2.00 USD available (balance 2.00 USD, 0.00 USD held)';
    expect(refused).toMatchObject({
      cleared: false,
      priceMicros: 3n * USD,
      clearance: reason,
      detail: { wallet_clearance: { cleared: false, reason, remaining_after_usd: '0.00' } },
    });
    // A quote reserves nothing: the ledger is unchanged.
    expect(await prisma.ledgerEntry.count({ where: { clientId } })).toBe(1);
  });

  it('names the spend cap when it is what stops the price', async () => {
    const clientId = randomUUID();
    await prisma.walletAccount.create({ data: { clientId, spendCapMicros: 20_000n } });
    await prisma.ledgerEntry.createMany({
      data: [
        { clientId, kind: 'credit', amountMicros: 10n * USD, createdAt: NOW },
        { clientId, kind: 'capture', amountMicros: -16_000n, runId: randomUUID(), createdAt: NOW },
        { clientId, kind: 'hold', amountMicros: -2_000n, runId: randomUUID(), createdAt: NOW },
      ],
    });
    const quote = await issueQuote(prisma, request({ clientId, priceMicros: 4_000n }), {
      ttlMs: TTL_MS,
      now: NOW,
    });
    expect(quote.clearance).toBe(
      'spend cap exceeded: the price 0.004 USD would exceed the 0.002 USD left of the 0.02 USD monthly spend cap (0.016 USD spent, 0.002 USD held)',
    );
  });
});
