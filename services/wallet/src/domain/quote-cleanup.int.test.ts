import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@svc/db';
import { createLogger } from '@svc/log';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { quoteRequest } from '../../test/ledger-fixtures';
import { startQuoteCleanup } from '../handlers/quote-cleanup-timer';
import { holdForRun } from './holds';
import { deleteExpiredUnusedQuotes } from './quote-cleanup';
import { issueQuote, type QuoteRequest } from './quotes';

// The wallet's quote clean-up (issue 13: "stored quotes that expire are cleaned up") on a real,
// migrated PostgreSQL (a fresh database, dropped afterwards).
const USD = 1_000_000n;
const TTL_MS = 15 * 60_000;
const GRACE_MS = 60 * 60_000;
const HASH = 'd'.repeat(64);
/** When the quotes of a test are issued; the clean-up runs at LATER (expired 2 h ago). */
const ISSUED = new Date('2026-09-15T10:00:00.000Z');
const LATER = new Date(ISSUED.getTime() + TTL_MS + 2 * GRACE_MS);

let database: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase('wallet_quote_cleanup');
  prisma = database.prisma;
});

afterAll(() => database?.drop());

function request(parts: Partial<QuoteRequest> = {}): QuoteRequest {
  return quoteRequest(HASH, parts);
}

async function issue(parts: Partial<QuoteRequest> = {}, now = ISSUED): Promise<string> {
  return (await issueQuote(prisma, request(parts), { ttlMs: TTL_MS, now })).id;
}

async function exists(id: string): Promise<boolean> {
  return (await prisma.quote.count({ where: { id } })) === 1;
}

describe('deleteExpiredUnusedQuotes', () => {
  it('deletes an unused quote expired past the grace period and keeps every other kind', async () => {
    const unused = await issue();
    // Expired, but within the grace period at LATER.
    const recent = await issue({}, new Date(LATER.getTime() - TTL_MS - GRACE_MS / 2));
    const notExpired = await issue({}, LATER);
    // A free run's own quote (its id is the run id).
    const ofRun = await issue({ forRun: true });
    // A quote the client quoted first and then ran (a free run: holdForRun marks it).
    const run = request();
    await issueQuote(prisma, run, { ttlMs: TTL_MS, now: ISSUED });
    await holdForRun(
      prisma,
      { clientId: run.clientId, runId: run.quoteId, quoteId: run.quoteId, slug: 'crt', inputHash: HASH },
      { now: new Date(ISSUED.getTime() + 60_000) },
    );
    // A paid quote run once: its hold line is in the ledger under its id.
    const payer = randomUUID();
    await prisma.ledgerEntry.create({ data: { clientId: payer, kind: 'credit', amountMicros: USD } });
    const paid = await issue({ clientId: payer, slug: 'pii-redact', priceMicros: 2_000n });
    await holdForRun(
      prisma,
      { clientId: payer, runId: paid, quoteId: paid, slug: 'pii-redact', inputHash: HASH },
      { now: new Date(ISSUED.getTime() + 60_000) },
    );
    // Stored before the mark existed: nobody can tell whether a run used it, so it stays.
    const legacy = randomUUID();
    await prisma.quote.create({
      data: {
        id: legacy,
        clientId: randomUUID(),
        slug: 'crt',
        priceMicros: 0n,
        inputHash: HASH,
        cleared: true,
        clearance: 'free capability: no funds needed',
        detail: { wallet_clearance: { cleared: true, reason: 'free capability: no funds needed' } },
        createdAt: ISSUED,
        expiresAt: new Date(ISSUED.getTime() + TTL_MS),
      },
    });

    expect(await deleteExpiredUnusedQuotes(prisma, { graceMs: GRACE_MS, now: LATER })).toBe(1);
    expect(await exists(unused)).toBe(false);
    for (const kept of [recent, notExpired, ofRun, run.quoteId, paid, legacy]) {
      expect({ kept, exists: await exists(kept) }).toEqual({ kept, exists: true });
    }
    // Idempotent: a second pass finds nothing more.
    expect(await deleteExpiredUnusedQuotes(prisma, { graceMs: GRACE_MS, now: LATER })).toBe(0);
  });

  it('cleans up a burst of 2,000 quotes nobody ran, in bounded batches', async () => {
    const clientId = randomUUID();
    const ids = Array.from({ length: 2_000 }, () => randomUUID());
    await prisma.quote.createMany({
      data: ids.map((id) => ({
        id,
        clientId,
        slug: 'crt',
        priceMicros: 0n,
        inputHash: HASH,
        cleared: true,
        clearance: 'free capability: no funds needed',
        detail: { wallet_clearance: { cleared: true, reason: 'free' }, used_by_run: false },
        createdAt: ISSUED,
        expiresAt: new Date(ISSUED.getTime() + TTL_MS),
      })),
    });
    // One pass deletes at most maxBatches × batchSize: 1,500 here; the next pass takes the rest.
    const bounded = { graceMs: GRACE_MS, now: LATER, batchSize: 500, maxBatches: 3 };
    expect(await deleteExpiredUnusedQuotes(prisma, bounded)).toBe(1_500);
    expect(await prisma.quote.count({ where: { clientId } })).toBe(500);
    expect(await deleteExpiredUnusedQuotes(prisma, bounded)).toBe(500);
    expect(await prisma.quote.count({ where: { clientId } })).toBe(0);
  });
});

describe('the clean-up timer', () => {
  it('runs passes on its own until stopped', async () => {
    const expired = await issue({}, new Date(Date.now() - TTL_MS - 2_000));
    const cleanup = startQuoteCleanup({
      prisma,
      logger: createLogger({ service: 'wallet-test', level: 'silent' }),
      everyMs: 50,
      graceMs: 1_000,
    });
    try {
      for (let tries = 0; tries < 200 && (await exists(expired)); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await exists(expired)).toBe(false);
    } finally {
      await cleanup.close();
    }
  });
});
