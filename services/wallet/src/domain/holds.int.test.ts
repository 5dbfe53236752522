import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@svc/db';
import { ConflictError, NotFoundError, PaymentRequiredError, ValidationError } from '@svc/errors';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { getBalance } from './balance';
import { holdForRun } from './holds';
import { issueQuote } from './quotes';

// holdForRun on a real, migrated PostgreSQL: the quote checks, the hold line, idempotency, 402.
const USD = 1_000_000n;
const NOW = new Date('2026-09-15T12:00:00.000Z');
const TTL_MS = 15 * 60_000;
const HASH = 'c'.repeat(64);

let database: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase('wallet_holds');
  prisma = database.prisma;
});

afterAll(() => database?.drop());

/** A client with `creditMicros` and a quote of `priceMicros` for pii-redact; run id = quote id. */
async function quoted(priceMicros: bigint, creditMicros = USD) {
  const clientId = randomUUID();
  if (creditMicros > 0n) {
    await prisma.ledgerEntry.create({
      data: { clientId, kind: 'credit', amountMicros: creditMicros, createdAt: NOW },
    });
  }
  const quoteId = randomUUID();
  await issueQuote(
    prisma,
    { quoteId, clientId, slug: 'pii-redact', priceMicros, inputHash: HASH },
    { ttlMs: TTL_MS, now: NOW },
  );
  return {
    clientId,
    quoteId,
    request: { clientId, runId: quoteId, quoteId, slug: 'pii-redact', inputHash: HASH },
  };
}

describe('holdForRun (wallet.ledger_entries, wallet.quotes)', () => {
  it('holds the quoted price as one negative hold line and returns the stored quote', async () => {
    const { clientId, quoteId, request } = await quoted(4_000n);
    const hold = await holdForRun(prisma, request, { now: NOW });
    expect(hold.heldMicros).toBe(4_000n);
    expect(hold.quote).toMatchObject({ id: quoteId, priceMicros: 4_000n, slug: 'pii-redact' });
    const lines = await prisma.ledgerEntry.findMany({ where: { clientId, kind: 'hold' } });
    expect(lines).toEqual([
      expect.objectContaining({
        amountMicros: -4_000n,
        runId: quoteId,
        slug: 'pii-redact',
        note: `hold for run ${quoteId}`,
        createdAt: NOW,
      }),
    ]);
    expect((await getBalance(prisma, clientId, { now: NOW })).heldMicros).toBe(4_000n);
  });

  it('is idempotent per run: a retry returns the same hold, even after the quote expired', async () => {
    const { clientId, request } = await quoted(4_000n);
    await holdForRun(prisma, request, { now: NOW });
    const later = new Date(NOW.getTime() + TTL_MS + 1);
    await expect(holdForRun(prisma, request, { now: later })).resolves.toMatchObject({ heldMicros: 4_000n });
    expect(await prisma.ledgerEntry.count({ where: { clientId, kind: 'hold' } })).toBe(1);
  });

  it('answers 409 "already used" when the run’s hold was settled already', async () => {
    const { clientId, quoteId, request } = await quoted(4_000n);
    await holdForRun(prisma, request, { now: NOW });
    // Released, e.g. by the orphan-hold sweeper after the orchestrator's transaction rolled back.
    await prisma.ledgerEntry.create({
      data: { clientId, kind: 'release', amountMicros: 4_000n, runId: quoteId, createdAt: NOW },
    });
    await expect(holdForRun(prisma, request, { now: NOW })).rejects.toEqual(
      new ConflictError(`quote_id ${quoteId} has already been used for a run; quote again`),
    );
  });

  it('writes no line for a free quote and holds 0', async () => {
    const { clientId, request } = await quoted(0n, 0n);
    await expect(holdForRun(prisma, request, { now: NOW })).resolves.toMatchObject({ heldMicros: 0n });
    expect(await prisma.ledgerEntry.count({ where: { clientId } })).toBe(0);
    // No lock was needed either: no account row was created.
    expect(await prisma.walletAccount.count({ where: { clientId } })).toBe(0);
  });

  it('answers an unknown quote and another client’s quote with the same 404', async () => {
    const { request } = await quoted(4_000n);
    const unknownId = randomUUID();
    await expect(
      holdForRun(prisma, { ...request, quoteId: unknownId, runId: unknownId }, { now: NOW }),
    ).rejects.toEqual(new NotFoundError(`unknown quote_id: ${unknownId}`));
    const stranger = randomUUID();
    await expect(holdForRun(prisma, { ...request, clientId: stranger }, { now: NOW })).rejects.toEqual(
      new NotFoundError(`unknown quote_id: ${request.quoteId}`),
    );
    expect(await prisma.ledgerEntry.count({ where: { clientId: stranger } })).toBe(0);
  });

  it('answers 422 for another capability or input and 409 for an expired quote, holding nothing', async () => {
    const { clientId, quoteId, request } = await quoted(4_000n);
    await expect(holdForRun(prisma, { ...request, slug: 'html-to-pdf' }, { now: NOW })).rejects.toEqual(
      new ValidationError(`quote_id ${quoteId} was issued for capability pii-redact, not html-to-pdf`),
    );
    await expect(holdForRun(prisma, { ...request, inputHash: 'd'.repeat(64) }, { now: NOW })).rejects.toEqual(
      new ValidationError(`quote_id ${quoteId} was issued for a different input; quote this input again`),
    );
    const expired = await holdForRun(prisma, request, { now: new Date(NOW.getTime() + TTL_MS) }).catch(
      (err: unknown) => err,
    );
    expect(expired).toBeInstanceOf(ConflictError);
    expect(expired).toMatchObject({
      message: `quote_id ${quoteId} expired at 2026-09-15T12:15:00.000Z; quote again`,
    });
    expect(await prisma.ledgerEntry.count({ where: { clientId, kind: 'hold' } })).toBe(0);
  });

  it('re-checks funds under the lock: a quote cleared earlier fails with 402 once the money is held', async () => {
    // 0.006 USD: room for one hold of 0.004 USD, and both quotes were cleared when issued.
    const first = await quoted(4_000n, 6_000n);
    const secondId = randomUUID();
    const second = await issueQuote(
      prisma,
      {
        quoteId: secondId,
        clientId: first.clientId,
        slug: 'pii-redact',
        priceMicros: 4_000n,
        inputHash: HASH,
      },
      { ttlMs: TTL_MS, now: NOW },
    );
    expect(second.cleared).toBe(true);
    await holdForRun(prisma, first.request, { now: NOW });
    const refused = await holdForRun(
      prisma,
      { ...first.request, quoteId: secondId, runId: secondId },
      { now: NOW },
    ).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(PaymentRequiredError);
    expect(refused).toMatchObject({
      status: 402,
      message:
        'insufficient balance: the price 0.004 USD exceeds the 0.002 USD available (balance 0.006 USD, 0.004 USD held)',
    });
    expect(await prisma.ledgerEntry.count({ where: { clientId: first.clientId, kind: 'hold' } })).toBe(1);
  });

  it('accepts a quote that was not cleared when the money arrived since', async () => {
    const { clientId, request } = await quoted(4_000n, 0n);
    const quote = await prisma.quote.findUniqueOrThrow({ where: { id: request.quoteId } });
    expect(quote.cleared).toBe(false);
    await prisma.ledgerEntry.create({
      data: { clientId, kind: 'credit', amountMicros: USD, createdAt: NOW },
    });
    await expect(holdForRun(prisma, request, { now: NOW })).resolves.toMatchObject({ heldMicros: 4_000n });
  });
});
