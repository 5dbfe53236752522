import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@svc/db';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { writeLines } from '../../test/ledger-fixtures';
import { openHolds } from './open-holds';
import { runLedger } from './run-ledger';

// runLedger and openHolds on a real, migrated PostgreSQL, with lines at pinned instants.
const HOLD = -4_000n;

let database: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase('wallet_ledger_reads');
  prisma = database.prisma;
});

afterAll(() => database?.drop());

describe('runLedger', () => {
  it('gives the run’s lines oldest first (money order at equal instants) with its totals', async () => {
    const clientId = randomUUID();
    const runId = randomUUID();
    const at = '2026-09-15T12:00:00.000Z';
    // Written in reverse order, all at one instant: the order comes from the query.
    await writeLines(prisma, clientId, [
      { kind: 'capture', amountMicros: HOLD, slug: 'pii-redact', runId, at },
      { kind: 'hold', amountMicros: HOLD, slug: 'pii-redact', runId, at },
    ]);
    const ledger = await runLedger(prisma, clientId, runId);
    expect(ledger.lines.map((line) => [line.kind, line.amountMicros])).toEqual([
      ['hold', HOLD],
      ['capture', HOLD],
    ]);
    expect(ledger).toMatchObject({ heldMicros: 0n, chargedMicros: 4_000n, settled: true });
  });

  it('shows an open hold as held; another client sees nothing of it', async () => {
    const clientId = randomUUID();
    const runId = randomUUID();
    await writeLines(prisma, clientId, [
      { kind: 'hold', amountMicros: HOLD, runId, at: '2026-09-15T12:00:00Z' },
    ]);
    expect(await runLedger(prisma, clientId, runId)).toMatchObject({ heldMicros: 4_000n, settled: false });
    expect(await runLedger(prisma, randomUUID(), runId)).toEqual({
      lines: [],
      heldMicros: 0n,
      chargedMicros: 0n,
      settled: true,
    });
  });
});

describe('openHolds', () => {
  it('lists holds without capture or release created before the bound, oldest first, up to limit', async () => {
    const clientId = randomUUID();
    const [old, older, captured, released, recent] = await writeLines(prisma, clientId, [
      { kind: 'hold', amountMicros: HOLD, at: '2026-09-15T11:40:00.000Z' },
      { kind: 'hold', amountMicros: HOLD, at: '2026-09-15T11:30:00.000Z' },
      { kind: 'hold', amountMicros: HOLD, at: '2026-09-15T11:00:00.000Z' },
      { kind: 'hold', amountMicros: HOLD, at: '2026-09-15T11:00:00.000Z' },
      // Exactly at the bound: not older than it.
      { kind: 'hold', amountMicros: HOLD, at: '2026-09-15T11:50:00.000Z' },
    ]);
    await writeLines(prisma, clientId, [
      { kind: 'capture', amountMicros: HOLD, runId: captured, at: '2026-09-15T11:05:00.000Z' },
      { kind: 'release', amountMicros: -HOLD, runId: released, at: '2026-09-15T11:05:00.000Z' },
    ]);
    const bound = new Date('2026-09-15T11:50:00.000Z');
    // The suite's other open hold (runLedger above) was made at 12:00, after the bound.
    const holds = await openHolds(prisma, bound, 1000);
    expect(holds).toEqual([
      { runId: older, clientId, createdAt: new Date('2026-09-15T11:30:00.000Z') },
      { runId: old, clientId, createdAt: new Date('2026-09-15T11:40:00.000Z') },
    ]);
    expect(holds.map((hold) => hold.runId)).not.toContain(recent);
    expect(await openHolds(prisma, bound, 1)).toEqual([holds[0]]);
    // Keyset paging: strictly after the cursor, in (created_at, run_id) order.
    const [first, second] = holds;
    if (first === undefined || second === undefined) throw new Error('expected two open holds');
    expect(await openHolds(prisma, bound, 1, { createdAt: first.createdAt, runId: first.runId })).toEqual([
      second,
    ]);
    expect(await openHolds(prisma, bound, 10, { createdAt: second.createdAt, runId: second.runId })).toEqual(
      [],
    );
  });
});
