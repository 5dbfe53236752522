import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@svc/db';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { getBalance } from './balance';

// A fresh database on the test server, migrated, dropped afterwards: the real schema, no mocks.
const USD = 1_000_000n;
/** The clock every test reads the balance at: mid-September 2026 (UTC). */
const NOW = new Date('2026-09-15T12:00:00.000Z');
const IN_PERIOD = new Date('2026-09-10T08:00:00.000Z');

type Kind = 'credit' | 'hold' | 'capture' | 'release' | 'adjustment';
interface Line {
  kind: Kind;
  amountMicros: bigint;
  runId?: string;
  createdAt?: Date;
}

let database: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase('wallet_balance');
  prisma = database.prisma;
});

afterAll(() => database?.drop());

/** A client id no other test uses, with the given ledger lines (and optional account row). */
async function clientWith(lines: Line[], spendCapMicros?: bigint | null): Promise<string> {
  const clientId = randomUUID();
  if (spendCapMicros !== undefined) {
    await prisma.walletAccount.create({ data: { clientId, spendCapMicros } });
  }
  await prisma.ledgerEntry.createMany({
    data: lines.map((line) => ({
      clientId,
      kind: line.kind,
      amountMicros: line.amountMicros,
      runId: line.runId ?? null,
      createdAt: line.createdAt ?? IN_PERIOD,
    })),
  });
  return clientId;
}

describe('getBalance (wallet.ledger_entries on a real PostgreSQL)', () => {
  it('gives zeros and a null cap to a client with no account and no lines', async () => {
    const clientId = randomUUID();
    const balance = await getBalance(prisma, clientId, { now: NOW });
    expect(balance).toEqual({
      clientId,
      balanceMicros: 0n,
      heldMicros: 0n,
      spentMicros: 0n,
      spendCapMicros: null,
      remainingMicros: 0n,
      period: { start: new Date('2026-09-01T00:00:00.000Z'), end: new Date('2026-10-01T00:00:00.000Z') },
    });
  });

  it('sums credits and adjustments', async () => {
    const clientId = await clientWith([
      { kind: 'credit', amountMicros: 10n * USD },
      { kind: 'credit', amountMicros: 5n * USD },
      { kind: 'adjustment', amountMicros: -1_500_000n },
    ]);
    const balance = await getBalance(prisma, clientId, { now: NOW });
    expect(balance.balanceMicros).toBe(13_500_000n);
    expect(balance.remainingMicros).toBe(13_500_000n);
    expect(balance.spendCapMicros).toBeNull();
  });

  it('subtracts captures from the balance and counts them as spent', async () => {
    const runId = randomUUID();
    const clientId = await clientWith([
      { kind: 'credit', amountMicros: 10n * USD },
      { kind: 'hold', amountMicros: -2_500_000n, runId },
      { kind: 'capture', amountMicros: -2_500_000n, runId },
    ]);
    const balance = await getBalance(prisma, clientId, { now: NOW });
    expect(balance.balanceMicros).toBe(7_500_000n);
    expect(balance.spentMicros).toBe(2_500_000n);
    // The hold was captured: nothing is held any more.
    expect(balance.heldMicros).toBe(0n);
    expect(balance.remainingMicros).toBe(7_500_000n);
  });

  it('counts an open hold as held and not as spent', async () => {
    const clientId = await clientWith([
      { kind: 'credit', amountMicros: 10n * USD },
      { kind: 'hold', amountMicros: -3n * USD, runId: randomUUID() },
    ]);
    const balance = await getBalance(prisma, clientId, { now: NOW });
    expect(balance.balanceMicros).toBe(10n * USD);
    expect(balance.heldMicros).toBe(3n * USD);
    expect(balance.spentMicros).toBe(0n);
    expect(balance.remainingMicros).toBe(7n * USD);
  });

  it('stops counting a hold once it is released', async () => {
    const released = randomUUID();
    const open = randomUUID();
    const clientId = await clientWith([
      { kind: 'credit', amountMicros: 10n * USD },
      { kind: 'hold', amountMicros: -2n * USD, runId: released },
      { kind: 'release', amountMicros: 2n * USD, runId: released },
      { kind: 'hold', amountMicros: -1n * USD, runId: open },
    ]);
    const balance = await getBalance(prisma, clientId, { now: NOW });
    expect(balance.heldMicros).toBe(1n * USD);
    expect(balance.balanceMicros).toBe(10n * USD);
    expect(balance.remainingMicros).toBe(9n * USD);
  });

  it('lets the cap bind when cap - spent - held is below balance - held', async () => {
    const captured = randomUUID();
    const clientId = await clientWith(
      [
        { kind: 'credit', amountMicros: 100n * USD },
        { kind: 'capture', amountMicros: -2n * USD, runId: captured },
        { kind: 'hold', amountMicros: -1n * USD, runId: randomUUID() },
      ],
      5n * USD,
    );
    const balance = await getBalance(prisma, clientId, { now: NOW });
    expect(balance.spendCapMicros).toBe(5n * USD);
    expect(balance.balanceMicros).toBe(98n * USD);
    // min(98 - 1, 5 - 2 - 1) = 2
    expect(balance.remainingMicros).toBe(2n * USD);
  });

  it('lets the balance bind when it is below the cap', async () => {
    const clientId = await clientWith([{ kind: 'credit', amountMicros: 10n * USD }], 50n * USD);
    const balance = await getBalance(prisma, clientId, { now: NOW });
    expect(balance.spendCapMicros).toBe(50n * USD);
    expect(balance.remainingMicros).toBe(10n * USD);
  });

  it('treats an account row with a null cap as no cap', async () => {
    const clientId = await clientWith([{ kind: 'credit', amountMicros: 4n * USD }], null);
    const balance = await getBalance(prisma, clientId, { now: NOW });
    expect(balance.spendCapMicros).toBeNull();
    expect(balance.remainingMicros).toBe(4n * USD);
  });

  it('never reports a negative remaining amount when spending already passed a lowered cap', async () => {
    const clientId = await clientWith(
      [
        { kind: 'credit', amountMicros: 100n * USD },
        { kind: 'capture', amountMicros: -7n * USD, runId: randomUUID() },
      ],
      5n * USD,
    );
    const balance = await getBalance(prisma, clientId, { now: NOW });
    expect(balance.spentMicros).toBe(7n * USD);
    expect(balance.remainingMicros).toBe(0n);
  });

  it('counts as spent only captures of the current calendar month (UTC), [start, end)', async () => {
    const clientId = await clientWith(
      [
        { kind: 'credit', amountMicros: 100n * USD },
        // Last millisecond of August: previous period.
        {
          kind: 'capture',
          amountMicros: -1n * USD,
          runId: randomUUID(),
          createdAt: new Date('2026-08-31T23:59:59.999Z'),
        },
        // First instant of September: this period.
        {
          kind: 'capture',
          amountMicros: -2n * USD,
          runId: randomUUID(),
          createdAt: new Date('2026-09-01T00:00:00.000Z'),
        },
        // Last millisecond of September: this period.
        {
          kind: 'capture',
          amountMicros: -4n * USD,
          runId: randomUUID(),
          createdAt: new Date('2026-09-30T23:59:59.999Z'),
        },
        // First instant of October: the next period (end is exclusive).
        {
          kind: 'capture',
          amountMicros: -8n * USD,
          runId: randomUUID(),
          createdAt: new Date('2026-10-01T00:00:00.000Z'),
        },
      ],
      10n * USD,
    );
    const balance = await getBalance(prisma, clientId, { now: NOW });
    expect(balance.spentMicros).toBe(6n * USD);
    // Every capture reduces the balance, whatever its period.
    expect(balance.balanceMicros).toBe(85n * USD);
    expect(balance.remainingMicros).toBe(4n * USD);

    const october = await getBalance(prisma, clientId, { now: new Date('2026-10-01T00:00:00.000Z') });
    expect(october.spentMicros).toBe(8n * USD);
    expect(october.period.start.toISOString()).toBe('2026-10-01T00:00:00.000Z');
  });

  it('sees only its own client lines', async () => {
    const mine = await clientWith([{ kind: 'credit', amountMicros: 1n * USD }]);
    await clientWith([
      { kind: 'credit', amountMicros: 50n * USD },
      { kind: 'hold', amountMicros: -5n * USD, runId: randomUUID() },
    ]);
    const balance = await getBalance(prisma, mine, { now: NOW });
    expect(balance.balanceMicros).toBe(1n * USD);
    expect(balance.heldMicros).toBe(0n);
  });
});
