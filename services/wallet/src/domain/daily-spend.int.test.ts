import { randomUUID } from 'node:crypto';
import { DailySpendResponse } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { capture, writeLines } from '../../test/ledger-fixtures';
import { toDailySpendResponse } from '../handlers/wire';
import { dailySpend } from './daily-spend';

// dailySpend on a real, migrated PostgreSQL, with ledger lines at pinned instants around UTC midnights.
const NOW = new Date('2026-09-15T12:00:00.000Z');

let database: TestDatabase;
let prisma: PrismaClient;
const clientId = randomUUID();

beforeAll(async () => {
  database = await createTestDatabase('wallet_daily');
  prisma = database.prisma;
  await writeLines(prisma, clientId, [
    // The last millisecond before a 7-day series ending 2026-09-15 starts: outside it.
    capture(1_000n, 'pii-redact', '2026-09-08T23:59:59.999Z'),
    // First instant of the series' first day.
    capture(2_000n, 'pii-redact', '2026-09-09T00:00:00.000Z'),
    capture(4_000n, 'pii-redact', '2026-09-12T23:59:59.999Z'),
    capture(10_000n, 'html-to-pdf', '2026-09-12T00:00:00.000Z'),
    capture(3_000n, 'pii-redact', '2026-09-13T00:00:00.000Z'),
    // Today, later than NOW: still today's bucket.
    capture(5_000n, 'html-to-pdf', '2026-09-15T23:00:00.000Z'),
  ]);
  // Not charges: a credit, an open hold, a released hold; and another client's capture.
  await writeLines(prisma, clientId, [
    { kind: 'credit', amountMicros: 5_000_000n, at: '2026-09-10T00:00:00.000Z' },
    { kind: 'hold', amountMicros: -10_000n, slug: 'html-to-pdf', at: '2026-09-14T01:00:00.000Z' },
    { kind: 'release', amountMicros: 10_000n, slug: 'html-to-pdf', at: '2026-09-14T02:00:00.000Z' },
  ]);
  await writeLines(prisma, randomUUID(), [capture(99_000n, 'pii-redact', '2026-09-11T00:00:00.000Z')]);
});

afterAll(() => database?.drop());

describe('dailySpend', () => {
  it('sums captures per UTC day over the last N days, every day present, today last', async () => {
    const series = await dailySpend(prisma, { clientId, days: 7 }, { now: NOW });
    expect(series.days).toEqual([
      { date: '2026-09-09', runs: 1, spentMicros: 2_000n },
      { date: '2026-09-10', runs: 0, spentMicros: 0n },
      { date: '2026-09-11', runs: 0, spentMicros: 0n },
      { date: '2026-09-12', runs: 2, spentMicros: 14_000n },
      { date: '2026-09-13', runs: 1, spentMicros: 3_000n },
      { date: '2026-09-14', runs: 0, spentMicros: 0n },
      { date: '2026-09-15', runs: 1, spentMicros: 5_000n },
    ]);
    expect(series.totals).toEqual({ runs: 5, spentMicros: 24_000n });
  });

  it('one day is today only; a longer series reaches the earlier capture', async () => {
    const today = await dailySpend(prisma, { clientId, days: 1 }, { now: NOW });
    expect(today.days).toEqual([{ date: '2026-09-15', runs: 1, spentMicros: 5_000n }]);
    const eight = await dailySpend(prisma, { clientId, days: 8 }, { now: NOW });
    expect(eight.days[0]).toEqual({ date: '2026-09-08', runs: 1, spentMicros: 1_000n });
    expect(eight.totals).toEqual({ runs: 6, spentMicros: 25_000n });
  });

  it('a client without captures gets every day at zero; the wire shape parses', async () => {
    const series = await dailySpend(prisma, { clientId: randomUUID(), days: 90 }, { now: NOW });
    expect(series.days).toHaveLength(90);
    expect(series.days.every((day) => day.runs === 0 && day.spentMicros === 0n)).toBe(true);
    const wire = toDailySpendResponse(await dailySpend(prisma, { clientId, days: 7 }, { now: NOW }));
    expect(DailySpendResponse.parse(wire)).toEqual(wire);
    expect(wire.total_usd).toBe('0.024');
    expect(wire.days.at(-1)).toEqual({ date: '2026-09-15', spent_usd: '0.005', runs: 1 });
  });
});
