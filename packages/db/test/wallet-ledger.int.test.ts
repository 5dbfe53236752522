import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PrismaClient } from '../src/index';
import {
  createMigratedDatabase,
  createPrismaClient,
  dropDatabase,
  ledgerTotals,
  lockWalletAccount,
  recomputeLedgerTotals,
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
    await createMigratedDatabase(url);
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

  it('keeps the running totals equal to the sums of the lines, whatever order the lines come in', async () => {
    // A pseudo-random but repeatable mix over three months: credits, adjustments, holds settled by
    // capture or release (sometimes the settling line first, sometimes never), concurrent writers.
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const clientId = randomUUID();
    const months = ['2026-08-20T10:00:00.000Z', '2026-09-01T00:00:00.000Z', '2026-09-30T23:59:59.999Z'];
    const at = () => new Date(months[Math.floor(random() * months.length)] ?? NOW);
    const writes: Array<() => Promise<unknown>> = [];
    for (let i = 0; i < 120; i += 1) {
      const amount = BigInt(1 + Math.floor(random() * 5_000));
      const dice = random();
      if (dice < 0.15) {
        writes.push(() =>
          prisma.ledgerEntry.create({
            data: { clientId, kind: 'credit', amountMicros: amount * 100n, createdAt: at() },
          }),
        );
      } else if (dice < 0.25) {
        writes.push(() =>
          prisma.ledgerEntry.create({
            data: {
              clientId,
              kind: 'adjustment',
              amountMicros: random() < 0.5 ? amount : -amount,
              createdAt: at(),
            },
          }),
        );
      } else {
        const runId = randomUUID();
        const settle: 'capture' | 'release' = random() < 0.5 ? 'capture' : 'release';
        const lines = [
          { clientId, kind: 'hold' as const, amountMicros: -amount, runId, createdAt: at() },
          ...(random() < 0.8
            ? [
                {
                  clientId,
                  kind: settle,
                  amountMicros: settle === 'capture' ? -amount : amount,
                  runId,
                  createdAt: at(),
                },
              ]
            : []),
        ];
        // Now and then the settling line is written before its hold (a test of the trigger's order handling).
        if (random() < 0.1) lines.reverse();
        writes.push(async () => {
          for (const line of lines) await prisma.ledgerEntry.create({ data: line });
        });
      }
    }
    // Four writers at once: the trigger's account updates serialize on the row.
    await Promise.all(
      [0, 1, 2, 3].map(async (k) => {
        for (let i = k; i < writes.length; i += 4) await writes[i]?.();
      }),
    );
    for (const now of [NOW, new Date('2026-08-31T23:00:00.000Z'), new Date('2026-10-05T00:00:00.000Z')]) {
      const period = spendPeriod(now);
      expect(await ledgerTotals(prisma, clientId, period)).toEqual(
        await recomputeLedgerTotals(prisma, clientId, period),
      );
    }
    const totals = await ledgerTotals(prisma, clientId, PERIOD);
    expect(totals.heldMicros > 0n).toBe(true);
    expect(totals.spentMicros > 0n).toBe(true);
  });

  it('refuses to change or delete a ledger line (append-only, enforced by the database)', async () => {
    const clientId = randomUUID();
    const line = await prisma.ledgerEntry.create({ data: { clientId, kind: 'credit', amountMicros: USD } });
    await expect(
      prisma.ledgerEntry.update({ where: { id: line.id }, data: { amountMicros: 2n * USD } }),
    ).rejects.toThrow(/append-only/);
    await expect(prisma.ledgerEntry.delete({ where: { id: line.id } })).rejects.toThrow(/append-only/);
    expect((await ledgerTotals(prisma, clientId, PERIOD)).balanceMicros).toBe(USD);
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
