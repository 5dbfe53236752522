import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@svc/db';
import { ValidationError } from '@svc/errors';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { capture, writeLines } from '../../test/ledger-fixtures';
import { usageStatement } from './usage-statement';

// usageStatement on a real, migrated PostgreSQL, with ledger lines at pinned instants.
const NOW = new Date('2026-09-15T12:00:00.000Z');

let database: TestDatabase;
let prisma: PrismaClient;
const clientId = randomUUID();
/** Run ids of the September captures, oldest first: A, B (pii-redact), C, D (html-to-pdf). */
let runs: string[] = [];
let august = '';
let october = '';

beforeAll(async () => {
  database = await createTestDatabase('wallet_usage');
  prisma = database.prisma;
  [august = '', ...runs] = await writeLines(prisma, clientId, [
    // Last millisecond of August: outside the default period.
    capture(2_000n, 'pii-redact', '2026-08-31T23:59:59.999Z'),
    capture(4_000n, 'pii-redact', '2026-09-02T10:00:00.000Z'),
    capture(2_000n, 'pii-redact', '2026-09-10T08:00:00.000Z'),
    capture(10_000n, 'html-to-pdf', '2026-09-12T09:00:00.000Z'),
    capture(10_000n, 'html-to-pdf', '2026-09-14T00:00:00.000Z'),
  ]);
  [october = ''] = await writeLines(prisma, clientId, [
    // First instant of October: outside (the end is exclusive).
    capture(4_000n, 'pii-redact', '2026-10-01T00:00:00.000Z'),
  ]);
  // Not charges: a credit, an open hold, a released hold; and another client's capture.
  await writeLines(prisma, clientId, [
    { kind: 'credit', amountMicros: 5_000_000n, at: '2026-09-01T00:00:00.000Z' },
    { kind: 'hold', amountMicros: -10_000n, slug: 'html-to-pdf', at: '2026-09-14T01:00:00.000Z' },
    { kind: 'release', amountMicros: 10_000n, slug: 'html-to-pdf', at: '2026-09-14T02:00:00.000Z' },
  ]);
  await writeLines(prisma, randomUUID(), [capture(99_000n, 'pii-redact', '2026-09-11T00:00:00.000Z')]);
});

afterAll(() => database?.drop());

describe('usageStatement', () => {
  it('covers the current UTC month by default: captures only, newest first, per capability, totals', async () => {
    const [a, b, c, d] = runs;
    const statement = await usageStatement(prisma, { clientId, limit: 100 }, { now: NOW });
    expect(statement).toEqual({
      clientId,
      period: { start: new Date('2026-09-01T00:00:00.000Z'), end: new Date('2026-10-01T00:00:00.000Z') },
      slug: null,
      lines: [
        {
          runId: d,
          slug: 'html-to-pdf',
          amountMicros: 10_000n,
          capturedAt: new Date('2026-09-14T00:00:00.000Z'),
        },
        {
          runId: c,
          slug: 'html-to-pdf',
          amountMicros: 10_000n,
          capturedAt: new Date('2026-09-12T09:00:00.000Z'),
        },
        {
          runId: b,
          slug: 'pii-redact',
          amountMicros: 2_000n,
          capturedAt: new Date('2026-09-10T08:00:00.000Z'),
        },
        {
          runId: a,
          slug: 'pii-redact',
          amountMicros: 4_000n,
          capturedAt: new Date('2026-09-02T10:00:00.000Z'),
        },
      ],
      linesTruncated: false,
      byCapability: [
        { slug: 'html-to-pdf', runs: 2, spentMicros: 20_000n },
        { slug: 'pii-redact', runs: 2, spentMicros: 6_000n },
      ],
      totals: { runs: 4, spentMicros: 26_000n },
    });
  });

  it('truncates the lines at limit, and only the lines', async () => {
    const statement = await usageStatement(prisma, { clientId, limit: 2 }, { now: NOW });
    expect(statement.lines.map((line) => line.runId)).toEqual([runs[3], runs[2]]);
    expect(statement.linesTruncated).toBe(true);
    expect(statement.totals).toEqual({ runs: 4, spentMicros: 26_000n });
    expect(statement.byCapability).toHaveLength(2);
    // Exactly as many lines as the limit: nothing was cut.
    expect((await usageStatement(prisma, { clientId, limit: 4 }, { now: NOW })).linesTruncated).toBe(false);
  });

  it('narrows to one capability', async () => {
    const statement = await usageStatement(
      prisma,
      { clientId, limit: 100, slug: 'pii-redact' },
      { now: NOW },
    );
    expect(statement.slug).toBe('pii-redact');
    expect(statement.lines.map((line) => line.runId)).toEqual([runs[1], runs[0]]);
    expect(statement.byCapability).toEqual([{ slug: 'pii-redact', runs: 2, spentMicros: 6_000n }]);
    expect(statement.totals).toEqual({ runs: 2, spentMicros: 6_000n });
  });

  it('takes an explicit [from, to): from inclusive, to exclusive', async () => {
    const statement = await usageStatement(
      prisma,
      { clientId, limit: 100, from: '2026-08-31T23:59:59.999Z', to: '2026-09-10T08:00:00.000Z' },
      { now: NOW },
    );
    expect(statement.lines.map((line) => line.runId)).toEqual([runs[0], august]);
    expect(statement.totals).toEqual({ runs: 2, spentMicros: 6_000n });

    const withOctober = await usageStatement(
      prisma,
      { clientId, limit: 100, from: '2026-09-14T00:00:00.000Z', to: '2026-10-01T00:00:00.001Z' },
      { now: NOW },
    );
    expect(withOctober.lines.map((line) => line.runId)).toEqual([october, runs[3]]);
  });

  it('gives an empty statement to a client without charges, and 422 for a reversed period', async () => {
    const nobody = await usageStatement(prisma, { clientId: randomUUID(), limit: 100 }, { now: NOW });
    expect(nobody).toMatchObject({
      lines: [],
      linesTruncated: false,
      byCapability: [],
      totals: { runs: 0, spentMicros: 0n },
    });
    await expect(
      usageStatement(prisma, {
        clientId,
        limit: 100,
        from: '2026-09-10T00:00:00Z',
        to: '2026-09-01T00:00:00Z',
      }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});
