import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@svc/db';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { getBalance } from './balance';
import { settleRun } from './settle';

// settleRun (the wallet.settle RPC) on a real, migrated PostgreSQL.
const USD = 1_000_000n;
const NOW = new Date('2026-09-15T12:00:00.000Z');
const LATER = new Date('2026-09-15T12:05:00.000Z');

let database: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase('wallet_settle');
  prisma = database.prisma;
});

afterAll(() => database?.drop());

/** A client with 1 USD and an open hold of 0.004 USD for a new run. */
async function heldRun() {
  const clientId = randomUUID();
  const runId = randomUUID();
  await prisma.ledgerEntry.createMany({
    data: [
      { clientId, kind: 'credit', amountMicros: USD, createdAt: NOW },
      { clientId, kind: 'hold', amountMicros: -4_000n, runId, slug: 'html-to-pdf', createdAt: NOW },
    ],
  });
  return { clientId, runId };
}

describe('settleRun', () => {
  it('captures: one line of −|hold| with the hold’s slug and the reason; the money leaves the balance', async () => {
    const { clientId, runId } = await heldRun();
    await expect(
      settleRun(prisma, { runId, clientId, outcome: 'capture', reason: 'run completed' }, { now: LATER }),
    ).resolves.toEqual({ applied: true });
    const capture = await prisma.ledgerEntry.findUniqueOrThrow({
      where: { runId_kind: { runId, kind: 'capture' } },
    });
    expect(capture).toMatchObject({
      clientId,
      amountMicros: -4_000n,
      slug: 'html-to-pdf',
      note: 'run completed',
      createdAt: LATER,
    });
    expect(await getBalance(prisma, clientId, { now: LATER })).toMatchObject({
      balanceMicros: USD - 4_000n,
      heldMicros: 0n,
      spentMicros: 4_000n,
    });
  });

  it('releases: one line of +|hold|; the balance is untouched and nothing is held', async () => {
    const { clientId, runId } = await heldRun();
    await expect(
      settleRun(
        prisma,
        { runId, clientId, outcome: 'release', reason: 'run failed: render_failed' },
        { now: LATER },
      ),
    ).resolves.toEqual({ applied: true });
    const release = await prisma.ledgerEntry.findUniqueOrThrow({
      where: { runId_kind: { runId, kind: 'release' } },
    });
    expect(release).toMatchObject({
      amountMicros: 4_000n,
      slug: 'html-to-pdf',
      note: 'run failed: render_failed',
    });
    expect(await getBalance(prisma, clientId, { now: LATER })).toMatchObject({
      balanceMicros: USD,
      heldMicros: 0n,
      spentMicros: 0n,
    });
  });

  it('applies nothing without a hold, for another client’s hold, or a second time', async () => {
    const clientId = randomUUID();
    await expect(
      settleRun(prisma, { runId: randomUUID(), clientId, outcome: 'release', reason: 'hold without a run' }),
    ).resolves.toEqual({ applied: false });
    expect(await prisma.ledgerEntry.count({ where: { clientId } })).toBe(0);

    const run = await heldRun();
    await expect(
      settleRun(prisma, {
        runId: run.runId,
        clientId: randomUUID(),
        outcome: 'capture',
        reason: 'run completed',
      }),
    ).resolves.toEqual({ applied: false });
    await expect(
      settleRun(prisma, { ...run, outcome: 'capture', reason: 'run completed' }, { now: LATER }),
    ).resolves.toEqual({ applied: true });
    await expect(
      settleRun(prisma, { ...run, outcome: 'capture', reason: 'run completed' }, { now: LATER }),
    ).resolves.toEqual({ applied: false });
    expect(await prisma.ledgerEntry.count({ where: { runId: run.runId } })).toBe(2);
  });
});
