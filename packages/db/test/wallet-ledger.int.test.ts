import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PrismaClient } from '../src/index';
import {
  createPrismaClient,
  dropDatabase,
  ensureDatabaseExists,
  ledgerTotals,
  lockWalletAccount,
  migrateDatabase,
  spendPeriod,
} from '../src/index';
import { uniqueDatabaseUrl } from './test-database';

// The wallet lock and totals shared by the wallet service and the admin CLI, on a real PostgreSQL.
const USD = 1_000_000n;
const NOW = new Date('2026-09-15T12:00:00.000Z');
const PERIOD = spendPeriod(NOW);

/** A promise with its resolve function, to step two transactions in a set order. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('wallet ledger helpers', () => {
  const url = uniqueDatabaseUrl('wallet_ledger');
  let prisma: PrismaClient;

  beforeAll(async () => {
    await ensureDatabaseExists(url);
    await migrateDatabase(url);
    prisma = createPrismaClient(url, { max: 4 });
  }, 60_000);

  afterAll(async () => {
    await prisma?.$disconnect();
    await dropDatabase(url);
  }, 60_000);

  it('ledgerTotals: balance, open holds, spent in the period and the cap, from a client or a transaction', async () => {
    const clientId = randomUUID();
    const captured = randomUUID();
    const released = randomUUID();
    await prisma.walletAccount.create({ data: { clientId, spendCapMicros: 5n * USD } });
    await prisma.ledgerEntry.createMany({
      data: [
        { clientId, kind: 'credit', amountMicros: 10n * USD, createdAt: NOW },
        { clientId, kind: 'adjustment', amountMicros: -USD, createdAt: NOW },
        { clientId, kind: 'hold', amountMicros: -2n * USD, runId: captured, createdAt: NOW },
        { clientId, kind: 'capture', amountMicros: -2n * USD, runId: captured, createdAt: NOW },
        { clientId, kind: 'hold', amountMicros: -USD, runId: released, createdAt: NOW },
        { clientId, kind: 'release', amountMicros: USD, runId: released, createdAt: NOW },
        { clientId, kind: 'hold', amountMicros: -3n * USD, runId: randomUUID(), createdAt: NOW },
        // Last month's capture: in the balance, not in the period's spend.
        {
          clientId,
          kind: 'capture',
          amountMicros: -USD,
          runId: randomUUID(),
          createdAt: new Date('2026-08-31T23:59:59.999Z'),
        },
      ],
    });
    const expected = {
      balanceMicros: 6n * USD,
      heldMicros: 3n * USD,
      spentMicros: 2n * USD,
      spendCapMicros: 5n * USD,
    };
    expect(await ledgerTotals(prisma, clientId, PERIOD)).toEqual(expected);
    expect(await prisma.$transaction((tx) => ledgerTotals(tx, clientId, PERIOD))).toEqual(expected);
  });

  it('ledgerTotals: zeros and no cap for a client the wallet never saw', async () => {
    expect(await ledgerTotals(prisma, randomUUID(), PERIOD)).toEqual({
      balanceMicros: 0n,
      heldMicros: 0n,
      spentMicros: 0n,
      spendCapMicros: null,
    });
  });

  it('lockWalletAccount creates a missing account without a cap and keeps an existing cap', async () => {
    const fresh = randomUUID();
    await prisma.$transaction((tx) => lockWalletAccount(tx, fresh));
    expect(await prisma.walletAccount.findUnique({ where: { clientId: fresh } })).toMatchObject({
      spendCapMicros: null,
    });

    const capped = randomUUID();
    await prisma.walletAccount.create({ data: { clientId: capped, spendCapMicros: 7n * USD } });
    await prisma.$transaction((tx) => lockWalletAccount(tx, capped));
    expect(await prisma.walletAccount.findUnique({ where: { clientId: capped } })).toMatchObject({
      spendCapMicros: 7n * USD,
    });
  });

  it.each([
    ['an existing account (the row lock)', true],
    ['a new account (the insert of the first holds the key)', false],
  ])(
    'lockWalletAccount makes a second transaction of the same client wait for the first: %s',
    async (_, exists) => {
      const clientId = randomUUID();
      if (exists) await prisma.walletAccount.create({ data: { clientId } });
      const events: string[] = [];
      const firstLocked = deferred();
      const firstMayCommit = deferred();
      const first = prisma.$transaction(async (tx) => {
        await lockWalletAccount(tx, clientId);
        events.push('first locked');
        firstLocked.resolve();
        await firstMayCommit.promise;
        events.push('first commits');
      });
      await firstLocked.promise;

      const second = prisma.$transaction(async (tx) => {
        await lockWalletAccount(tx, clientId);
        events.push('second locked');
      });
      // Another client's lock is not blocked by this one.
      await prisma.$transaction((tx) => lockWalletAccount(tx, randomUUID()));
      await sleep(200); // ms: time for the second transaction to take the lock if nothing stopped it
      expect(events).toEqual(['first locked']);

      firstMayCommit.resolve();
      await Promise.all([first, second]);
      expect(events).toEqual(['first locked', 'first commits', 'second locked']);
    },
  );
});
