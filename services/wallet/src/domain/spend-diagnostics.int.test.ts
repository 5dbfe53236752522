import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@svc/db';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { capture, writeLines } from '../../test/ledger-fixtures';
import { spendDiagnostics } from './spend-diagnostics';

// spendDiagnostics on a real, migrated PostgreSQL, with ledger lines at pinned instants.
const USD = 1_000_000n;
const NOW = new Date('2026-09-15T12:00:00.000Z');

let database: TestDatabase;
let prisma: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase('wallet_diagnostics');
  prisma = database.prisma;
});

afterAll(() => database?.drop());

/** A client with `cap` (or none), 1 USD credited and `lines`. */
async function client(cap: bigint | null, lines: Parameters<typeof writeLines>[2]): Promise<string> {
  const clientId = randomUUID();
  await prisma.walletAccount.create({ data: { clientId, spendCapMicros: cap } });
  await writeLines(prisma, clientId, [
    { kind: 'credit', amountMicros: USD, at: '2026-08-01T00:00:00.000Z' },
    ...lines,
  ]);
  return clientId;
}

describe('spendDiagnostics', () => {
  it('sums the trailing windows (now − length, now], projects at the 24h rate, ranks the period', async () => {
    const clientId = await client(100_000n, [
      capture(4_000n, 'pii-redact', '2026-09-15T11:30:00.000Z'), // 1h, 24h, 7d
      capture(10_000n, 'html-to-pdf', '2026-09-15T00:00:00.000Z'), // 24h, 7d
      capture(2_000n, 'pii-redact', '2026-09-14T13:00:00.000Z'), // 24h, 7d
      capture(8_000n, 'pii-redact', '2026-09-14T12:00:00.000Z'), // exactly 24h ago: 7d only
      capture(10_000n, 'html-to-pdf', '2026-09-10T00:00:00.000Z'), // 7d
      capture(2_000n, 'pii-redact', '2026-09-08T12:00:00.000Z'), // exactly 7d ago: the period only
      capture(4_000n, 'pii-redact', '2026-08-30T00:00:00.000Z'), // last month: balance only
      { kind: 'hold', amountMicros: -4_000n, slug: 'html-to-pdf', at: '2026-09-15T11:59:00.000Z' },
    ]);
    const diagnostics = await spendDiagnostics(prisma, clientId, { now: NOW });
    expect(diagnostics.asOf).toEqual(NOW);
    expect(diagnostics.snapshot).toMatchObject({
      balanceMicros: USD - 40_000n,
      heldMicros: 4_000n,
      spentMicros: 36_000n,
      spendCapMicros: 100_000n,
    });
    expect(diagnostics.windows).toEqual([
      { window: '1h', spentMicros: 4_000n, runs: 1 },
      { window: '24h', spentMicros: 16_000n, runs: 3 },
      { window: '7d', spentMicros: 34_000n, runs: 5 },
    ]);
    // 0.016 USD per 24 h: the 0.06 USD left of the cap (0.1 − 0.036 − 0.004) lasts 90 h; the
    // 0.956 USD available (0.96 − 0.004) lasts 1,434 h.
    expect(diagnostics.projection).toEqual({
      basisWindow: '24h',
      perHourMicros: 666n,
      capReachedAt: new Date('2026-09-19T06:00:00.000Z'),
      balanceEmptyAt: new Date('2026-11-14T06:00:00.000Z'),
      note:
        'straight line at the 24h rate of 0.000666 USD/hour; the 0.10 USD spend cap is reached at ' +
        '2026-09-19T06:00:00.000Z; the balance is used up at 2026-11-14T06:00:00.000Z',
    });
    expect(diagnostics.topCapabilities).toEqual([
      { slug: 'html-to-pdf', runs: 2, spentMicros: 20_000n },
      { slug: 'pii-redact', runs: 4, spentMicros: 16_000n },
    ]);
    expect(diagnostics.periodSpentMicros).toBe(36_000n);
  });

  it('falls back to the 7d rate when the last 24 h had no charge', async () => {
    const clientId = await client(null, [capture(16_800n, 'pii-redact', '2026-09-12T00:00:00.000Z')]);
    const { projection, windows } = await spendDiagnostics(prisma, clientId, { now: NOW });
    expect(windows.map((window) => window.spentMicros)).toEqual([0n, 0n, 16_800n]);
    // 0.0168 USD per 168 h = 0.0001 USD/h; 0.9832 USD available → 9,832 h > 365 days.
    expect(projection).toEqual({
      basisWindow: '7d',
      perHourMicros: 100n,
      capReachedAt: null,
      balanceEmptyAt: null,
      note: 'straight line at the 7d rate of 0.0001 USD/hour; no spend cap; the balance lasts more than 365 days',
    });
  });

  it('gives null when the cap is not reached before the period ends', async () => {
    const clientId = await client(500_000n, [capture(24_000n, 'pii-redact', '2026-09-15T06:00:00.000Z')]);
    const { projection } = await spendDiagnostics(prisma, clientId, { now: NOW });
    // 0.001 USD/h; 0.476 USD left of the cap needs 476 h, past 2026-10-01; the 0.976 USD
    // available lasts 976 h (40 days 16 h), well inside a year.
    expect(projection.capReachedAt).toBeNull();
    expect(projection.balanceEmptyAt).toEqual(new Date('2026-10-26T04:00:00.000Z'));
  });

  it('projects nothing for a client without recent charges', async () => {
    const clientId = await client(100_000n, [capture(4_000n, 'pii-redact', '2026-09-01T00:00:00.000Z')]);
    const diagnostics = await spendDiagnostics(prisma, clientId, { now: NOW });
    expect(diagnostics.windows.every((window) => window.spentMicros === 0n && window.runs === 0)).toBe(true);
    expect(diagnostics.projection).toMatchObject({
      basisWindow: null,
      capReachedAt: null,
      balanceEmptyAt: null,
    });
    // The period still ranks what was charged in it.
    expect(diagnostics.topCapabilities).toEqual([{ slug: 'pii-redact', runs: 1, spentMicros: 4_000n }]);

    const unknown = await spendDiagnostics(prisma, randomUUID(), { now: NOW });
    expect(unknown).toMatchObject({ topCapabilities: [], periodSpentMicros: 0n });
    expect(unknown.snapshot).toMatchObject({ balanceMicros: 0n, spendCapMicros: null });
  });

  it('names at most 5 capabilities, largest first, but shares against the whole period', async () => {
    const slugs = ['cap-a', 'cap-b', 'cap-c', 'cap-d', 'cap-e', 'cap-f'];
    const clientId = await client(null, [
      ...slugs.map((slug, i) => capture(BigInt(1_000 * (i + 1)), slug, '2026-09-03T00:00:00.000Z')),
    ]);
    const diagnostics = await spendDiagnostics(prisma, clientId, { now: NOW });
    expect(diagnostics.topCapabilities.map((usage) => usage.slug)).toEqual([
      'cap-f',
      'cap-e',
      'cap-d',
      'cap-c',
      'cap-b',
    ]);
    expect(diagnostics.periodSpentMicros).toBe(21_000n);
  });
});
