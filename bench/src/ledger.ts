// What a client's ledger history costs a quote and a hold: the wallet reads the client's totals
// (balance, open holds, month's spend) on every quote and, under the client's lock, on every hold.
// Measured for clients with growing histories: the running totals kept by the ledger's insert
// trigger (`ledgerTotals`, docs/decisions.md W7) against summing the lines (`recomputeLedgerTotals`,
// the consistency check; every read summed the lines before W7). Sequential reads on an otherwise
// idle database.
import { ledgerTotals, recomputeLedgerTotals, spendPeriod } from '@svc/db';
import { createTestDatabase } from '@svc/testkit';
import { formatColumns } from './columns';
import { percentile } from './quote-run-load';

/** Lines in the client's history per row of the report (each a third holds, captures, releases…). */
const HISTORY_SIZES = [1_000, 5_000, 20_000, 100_000] as const;
/** Reads timed per size and method (after 2 discarded ones). */
const RUNNING_READS = 200;
const SUMMED_READS = 20;

async function timeReads(read: () => Promise<unknown>, reads: number): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 2; i += 1) await read();
  const ms: number[] = [];
  for (let i = 0; i < reads; i += 1) {
    const started = performance.now();
    await read();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

export async function benchLedger(): Promise<void> {
  const database = await createTestDatabase('bench_ledger');
  const prisma = database.prisma;
  try {
    const period = spendPeriod(new Date());
    const rows: string[][] = [];
    let written = 0;
    const clientId = '00000000-0000-4000-8000-00000000be0c';
    for (const size of HISTORY_SIZES) {
      // Grow one client's history to `size` lines: per run a hold and its capture (or release),
      // spread over the last year, plus a credit every 100 lines. Written in SQL (the trigger runs
      // for every line, as it does in production).
      const runs = Math.floor((size - written) / 2);
      await prisma.$executeRaw`
        INSERT INTO wallet.ledger_entries (client_id, kind, amount_micros, run_id, slug, created_at)
        SELECT ${clientId}::uuid, k.kind::wallet.ledger_entry_kind, k.amount, r.run_id, 'pii-redact', r.at
        FROM (
          SELECT gen_random_uuid() AS run_id, i, now() - (i % 8760) * interval '1 hour' AS at
          FROM generate_series(1, ${runs}::int) AS i
        ) r
        CROSS JOIN LATERAL (VALUES
          ('hold', -2000::bigint),
          (CASE WHEN r.i % 10 = 0 THEN 'release' ELSE 'capture' END,
           CASE WHEN r.i % 10 = 0 THEN 2000::bigint ELSE -2000::bigint END)
        ) AS k(kind, amount)`;
      await prisma.$executeRaw`
        INSERT INTO wallet.ledger_entries (client_id, kind, amount_micros, created_at)
        SELECT ${clientId}::uuid, 'credit', 1000000, now() FROM generate_series(1, ${Math.max(1, Math.floor(runs / 50))}::int)`;
      await prisma.$executeRawUnsafe('VACUUM ANALYZE wallet.ledger_entries');
      written = size;
      const running = await timeReads(() => ledgerTotals(prisma, clientId, period), RUNNING_READS);
      const summed = await timeReads(() => recomputeLedgerTotals(prisma, clientId, period), SUMMED_READS);
      rows.push([
        size.toLocaleString('en-US'),
        `${running.p50.toFixed(2)} / ${running.p99.toFixed(2)}`,
        `${summed.p50.toFixed(1)} / ${summed.p99.toFixed(1)}`,
      ]);
    }
    console.log(
      [
        `wallet totals read per quote and per hold, sequential reads (ms p50 / p99; ${RUNNING_READS} and ${SUMMED_READS} reads)`,
        formatColumns(
          [
            'ledger lines of the client',
            'running totals (ledgerTotals)',
            'sum of the lines (recomputeLedgerTotals)',
          ],
          rows,
        ),
      ].join('\n'),
    );
  } finally {
    await database.drop();
  }
}
