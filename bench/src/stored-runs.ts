// Issue 15 item 8: run status (`GET /api/capability-runs/{id}`) and the usage statement
// (`GET /api/account/usage-statement`, the wallet's statement through the gateway) with 1,000 and
// then 1,000,000 stored runs, each with its ledger lines (hold, capture). The runs are copies of
// one real completed pii-redact run (so every stored row is one the platform wrote), seeded in SQL:
// one INSERT…SELECT over generate_series whose RETURNING feeds the ledger lines and their running
// totals (one statement), timed and printed.
// Run i is spread over the last 365 days (i mod 8760 hours back) and belongs to
//   - the "heavy" client when i mod 10 = 0 (10% of all runs: 100 at 1,000, 100,000 at 1,000,000);
//   - otherwise to client ⌊i / 1000⌋, so each of the others has 900 runs; client 0 is the "typical"
//     client measured (its 900 runs are the same at both sizes: only the store grows around it).
// Run status reads the heavy client's runs (a random sample, one per request). Target: run status
// p50 at 1,000,000 ≤ 1.2× its p50 at 1,000. The statements are printed beside it: the typical one
// shows whether the statement depends on the store's size, the heavy one how it grows with the
// client's own history (the current month's captures, ~7% of a year's).
import { loadavg } from 'node:os';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import type { TestApiKey, TestStack } from '@svc/testkit';
import type { Client } from 'pg';
// The wallet's own statement code, called directly for the rows without HTTP and bus: the same
// function its RPC handler runs (bench is not a dependency of the wallet, so a path, not a package).
import { usageStatement } from '../../services/wallet/src/domain/usage-statement';
import { formatColumns } from './columns';
import { BENCH_APPLICATION_NAME, type CostMeter, formatRowCosts, openCostMeter } from './cpu-cost';
import { connectRunsDatabase } from './crt-run-stats';
import { type LoadOptions, type LoadResult, measure } from './load';
import { percentile } from './quote-run-load';
import { ratioLine } from './report';
import { startBenchStack } from './stack-start';

const SIZES = [1_000, 1_000_000] as const;
/** Run ids of the heavy client read by the run-status load (cycled). */
const STATUS_SAMPLE = 1_000;
/** s of discarded load before each row of the first size (the stack has just started). */
const FIRST_WARMUP_S = 10;
/** Sequential calls per direct row (after 5 discarded). */
const DIRECT_CALLS = 200;
/** Lines a statement returns by default (UsageStatementQuery's limit). */
const STATEMENT_LIMIT = 100;
// ms: how long the template run may take to complete and be settled.
const TEMPLATE_TIMEOUT_MS = 60_000;
const TEMPLATE_TEXT =
  'Ticket 1. Dear customer, write to support@example.com or call +1 (555) 010-7788; IBAN GB82 WEST 1234 5698 7654 32.';

interface SizeFigures {
  size: number;
  seedSeconds: number;
  vacuumSeconds: number;
  status: LoadResult;
  heavyUsage: LoadResult;
  typicalUsage: LoadResult;
  heavyRuns: number;
  typicalRuns: number;
  direct: DirectFigures;
  /** Load average (1/5/15 min) when the size's measurements started: the machine may be shared. */
  load: string;
}

/** p50 / p99 ms of sequential direct calls: the database's share, without HTTP, the bus or queueing. */
interface DirectFigures {
  runLookup: { p50: number; p99: number };
  heavyStatement: { p50: number; p99: number };
  typicalStatement: { p50: number; p99: number };
}

async function timeCalls(call: (n: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let n = 0; n < 5; n += 1) await call(n);
  const ms: number[] = [];
  for (let n = 0; n < DIRECT_CALLS; n += 1) {
    const started = performance.now();
    await call(n);
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/**
 * The run lookup the orchestrator makes for a status (findUnique by id, as findOwnRun does) and
 * the wallet's usageStatement(), called one after another on one connection.
 */
async function directFigures(
  prisma: PrismaClient,
  ids: readonly string[],
  heavy: string,
  typical: string,
): Promise<DirectFigures> {
  return {
    runLookup: await timeCalls((n) => prisma.run.findUnique({ where: { id: ids[n % ids.length] ?? '' } })),
    heavyStatement: await timeCalls(() =>
      usageStatement(prisma, { clientId: heavy, limit: STATEMENT_LIMIT }),
    ),
    typicalStatement: await timeCalls(() =>
      usageStatement(prisma, { clientId: typical, limit: STATEMENT_LIMIT }),
    ),
  };
}

async function poll<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + TEMPLATE_TIMEOUT_MS;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) throw new Error(`stored-runs: ${what} within ${TEMPLATE_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** One real quote + run of pii-redact by the heavy client, completed and settled: the template row. */
async function templateRun(stack: TestStack, db: Client, key: TestApiKey): Promise<string> {
  const input = { text: TEMPLATE_TEXT };
  const quote = await stack.fetch('/api/capabilities/pii-redact/quote', {
    method: 'POST',
    apiKey: key.apiKey,
    json: { input },
  });
  const quoteId: unknown = Reflect.get(Reflect.get(Object(quote.json), 'quote') ?? {}, 'quote_id');
  if (quote.status !== 200 || typeof quoteId !== 'string') {
    throw new Error(`stored-runs: quote answered ${quote.status}: ${quote.text.slice(0, 300)}`);
  }
  const run = await stack.fetch('/api/capabilities/pii-redact/run', {
    method: 'POST',
    apiKey: key.apiKey,
    json: { input, quote_id: quoteId },
    headers: { 'idempotency-key': 'bench-stored-runs-template' },
  });
  const runId: unknown = Reflect.get(Object(run.json), 'run_id');
  if ((run.status !== 202 && run.status !== 200) || typeof runId !== 'string') {
    throw new Error(`stored-runs: run answered ${run.status}: ${run.text.slice(0, 300)}`);
  }
  await poll('the template run did not complete and settle', async () => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM orchestrator.runs r
         JOIN wallet.ledger_entries l ON l.run_id = r.id AND l.kind = 'capture'
        WHERE r.id = $1::uuid AND r.status = 'completed'`,
      [runId],
    );
    return (rows[0]?.n ?? 0) > 0 ? true : undefined;
  });
  return runId;
}

/** Columns of orchestrator.runs (whatever the migrations so far made them). */
async function runColumns(db: Client): Promise<string[]> {
  const { rows } = await db.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = 'orchestrator' AND table_name = 'runs' ORDER BY ordinal_position`,
  );
  return rows.map((row) => row.column_name);
}

/**
 * Runs `from`..`to` (see the header for who owns run i and when it was made) as copies of the
 * template, their hold and capture lines, and the running totals those lines make (the client's
 * balance and month's spend), in one statement. Columns named here are set per run; every other
 * column is the template's.
 *
 * The ledger's running-totals trigger (docs/decisions.md W7) is disabled for that statement and
 * its sums added set-based in the same statement instead: the trigger fires once per line at the
 * statement's end, and 100,000 updates of one client's totals row inside one transaction took over
 * five minutes here (each update walks the row's growing version chain). The sums are the ones the
 * trigger would make: balance += captures, the capture's month += the amount, no open hold (every
 * hold has its capture).
 */
async function seed(
  db: Client,
  columns: readonly string[],
  template: string,
  heavyClient: string,
  typicalClient: string,
  from: number,
  to: number,
): Promise<void> {
  const perRun: Record<string, string> = {
    id: 'g.id',
    public_id: 'g.id',
    client_id: `CASE WHEN g.i % 10 = 0 THEN $2::uuid WHEN g.i / 1000 = 0 THEN $3::uuid
                     ELSE md5('bench-client-' || (g.i / 1000))::uuid END`,
    idempotency_key: 'NULL',
    quote_id: 'g.id',
    request_hash: 'md5(g.id::text)',
    created_at: 'g.at',
    updated_at: "g.at + interval '80 milliseconds'",
    dispatched_at: "g.at + interval '5 milliseconds'",
    started_at: "g.at + interval '20 milliseconds'",
    finished_at: "g.at + interval '60 milliseconds'",
    settled_at: "g.at + interval '90 milliseconds'",
    job_id: "'run-' || g.id || '-1'",
  };
  const list = columns.join(', ');
  const values = columns.map((c) => perRun[c] ?? `t.${c}`).join(', ');
  await db.query('BEGIN');
  try {
    await db.query('ALTER TABLE wallet.ledger_entries DISABLE TRIGGER ledger_entries_running_totals');
    await db.query(
      `WITH r AS (
         INSERT INTO orchestrator.runs (${list})
         SELECT ${values}
           FROM (SELECT gen_random_uuid() AS id, i,
                        now() - (i % 8760) * interval '1 hour' - (i % 3600) * interval '1 second' AS at
                   FROM generate_series($4::int, $5::int) AS i) g
          CROSS JOIN (SELECT * FROM orchestrator.runs WHERE id = $1::uuid) t
         RETURNING id, client_id, slug, price_micros, created_at),
       l AS (
         INSERT INTO wallet.ledger_entries (client_id, kind, amount_micros, run_id, slug, created_at)
         SELECT r.client_id, k.kind::wallet.ledger_entry_kind, k.amount, r.id, r.slug, k.at
           FROM r CROSS JOIN LATERAL (VALUES
             ('hold', -r.price_micros, r.created_at),
             ('capture', -r.price_micros, r.created_at + interval '90 milliseconds')) AS k(kind, amount, at)
         RETURNING client_id, kind, amount_micros, created_at),
       a AS (
         INSERT INTO wallet.accounts AS a (client_id, balance_micros, updated_at)
         SELECT client_id, sum(amount_micros), now() FROM l WHERE kind = 'capture' GROUP BY client_id
         ON CONFLICT (client_id)
         DO UPDATE SET balance_micros = a.balance_micros + EXCLUDED.balance_micros, updated_at = now()
         RETURNING 1),
       p AS (
         INSERT INTO wallet.account_periods AS p (client_id, period_start, spent_micros)
         SELECT client_id, date_trunc('month', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
                sum(-amount_micros)
           FROM l WHERE kind = 'capture' GROUP BY 1, 2
         ON CONFLICT (client_id, period_start)
         DO UPDATE SET spent_micros = p.spent_micros + EXCLUDED.spent_micros
         RETURNING 1)
       SELECT (SELECT count(*) FROM l) AS lines, (SELECT count(*) FROM a) AS accounts,
              (SELECT count(*) FROM p) AS periods`,
      [template, heavyClient, typicalClient, from, to],
    );
    await db.query('ALTER TABLE wallet.ledger_entries ENABLE TRIGGER ledger_entries_running_totals');
    await db.query('COMMIT');
  } catch (err) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1_000;
}

async function runsOf(db: Client, clientId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM orchestrator.runs WHERE client_id = $1::uuid',
    [clientId],
  );
  return rows[0]?.n ?? 0;
}

async function statusSample(db: Client, clientId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id::text AS id FROM orchestrator.runs WHERE client_id = $1::uuid ORDER BY random() LIMIT $2',
    [clientId, STATUS_SAMPLE],
  );
  return rows.map((row) => row.id);
}

async function measureSize(
  stack: TestStack,
  db: Client,
  prisma: PrismaClient,
  heavy: TestApiKey,
  typical: TestApiKey,
  size: number,
  seedSeconds: number,
  vacuumSeconds: number,
  options: LoadOptions,
  meter: CostMeter,
): Promise<SizeFigures> {
  const ids = await statusSample(db, heavy.clientId);
  const api = stack.gatewayUrl;
  const probe = await stack.fetch(`/api/capability-runs/${ids[0]}`, { apiKey: heavy.apiKey });
  if (probe.status !== 200)
    throw new Error(`run status answered ${probe.status}: ${probe.text.slice(0, 300)}`);
  const usageProbe = await stack.fetch('/api/account/usage-statement', { apiKey: heavy.apiKey });
  if (usageProbe.status !== 200) {
    throw new Error(`usage statement answered ${usageProbe.status}: ${usageProbe.text.slice(0, 300)}`);
  }
  const label = size.toLocaleString('en-US');
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  const status = await measure(
    {
      name: `run status, ${label} stored`,
      url: `${api}/api/capability-runs/${ids[0]}`,
      pathFor: (n) => `/api/capability-runs/${ids[n % ids.length]}`,
      headers: { authorization: `Bearer ${heavy.apiKey}` },
    },
    options,
    meter,
  );
  const usage = (key: TestApiKey, who: string) =>
    measure(
      {
        name: `usage statement, ${who}, ${label} stored`,
        url: `${api}/api/account/usage-statement`,
        headers: { authorization: `Bearer ${key.apiKey}` },
      },
      options,
      meter,
    );
  return {
    size,
    seedSeconds,
    vacuumSeconds,
    status,
    heavyUsage: await usage(heavy, 'heavy client'),
    typicalUsage: await usage(typical, 'typical client'),
    heavyRuns: await runsOf(db, heavy.clientId),
    typicalRuns: await runsOf(db, typical.clientId),
    direct: await directFigures(prisma, ids, heavy.clientId, typical.clientId),
    load,
  };
}

function report(sizes: readonly SizeFigures[], options: LoadOptions): string {
  const row = (r: LoadResult, runs: string) => [
    r.name,
    runs,
    r.requestsPerSecond.toFixed(0),
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    String(r.non2xx),
    String(r.errors),
  ];
  const rows = sizes.flatMap((s) => [
    row(s.status, `${s.heavyRuns}`),
    row(s.heavyUsage, `${s.heavyRuns}`),
    row(s.typicalUsage, `${s.typicalRuns}`),
  ]);
  const seeds = sizes
    .map(
      (s) =>
        `${s.size.toLocaleString('en-US')} stored runs: seed ${s.seedSeconds.toFixed(1)} s (runs + 2 ledger lines each, ` +
        `one INSERT…SELECT), VACUUM ANALYZE + CHECKPOINT ${s.vacuumSeconds.toFixed(1)} s; load avg when measured ${s.load}`,
    )
    .join('\n');
  const lines = [
    `\nstored-runs: ${options.connections} connections, ${options.durationSeconds} s per row after ${options.warmupSeconds} s warm-up ` +
      `(${Math.max(options.warmupSeconds, FIRST_WARMUP_S)} s at the first size)`,
    seeds,
    formatColumns(['scenario', "client's runs", 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'], rows),
  ];
  const pair = (f: { p50: number; p99: number }) => `${f.p50.toFixed(2)} / ${f.p99.toFixed(2)}`;
  lines.push(
    `\ndirect calls, no HTTP and no bus (sequential, one connection, ${DIRECT_CALLS} calls; ms p50 / p99):`,
    formatColumns(
      ['stored runs', 'run lookup (findUnique by id)', 'usageStatement() heavy', 'usageStatement() typical'],
      sizes.map((s) => [
        s.size.toLocaleString('en-US'),
        pair(s.direct.runLookup),
        pair(s.direct.heavyStatement),
        pair(s.direct.typicalStatement),
      ]),
    ),
  );
  const [small, large] = sizes;
  if (small && large) {
    lines.push(
      ratioLine(
        'direct run lookup p50, 1,000,000 ÷ 1,000',
        large.direct.runLookup.p50,
        small.direct.runLookup.p50,
      ),
      ratioLine(
        'direct usageStatement() p50 (typical client), 1,000,000 ÷ 1,000',
        large.direct.typicalStatement.p50,
        small.direct.typicalStatement.p50,
      ),
      ratioLine(
        'direct usageStatement() p50 (heavy client), 1,000,000 ÷ 1,000',
        large.direct.heavyStatement.p50,
        small.direct.heavyStatement.p50,
      ),
      ratioLine('run status p50, 1,000,000 ÷ 1,000', large.status.p50Ms, small.status.p50Ms, { atMost: 1.2 }),
      ratioLine(
        'usage statement p50 (typical client), 1,000,000 ÷ 1,000',
        large.typicalUsage.p50Ms,
        small.typicalUsage.p50Ms,
      ),
      ratioLine(
        'usage statement p50 (heavy client), 1,000,000 ÷ 1,000',
        large.heavyUsage.p50Ms,
        small.heavyUsage.p50Ms,
      ),
    );
  }
  return lines.join('\n');
}

/** The platform's processes, each counted in the CPU per request. */
const SERVICES = ['registry', 'wallet', 'orchestrator', 'worker', 'gateway'] as const;

export async function benchStoredRuns(options: LoadOptions): Promise<void> {
  let stack: TestStack | undefined;
  let db: Client | undefined;
  let prisma: PrismaClient | undefined;
  let meter: CostMeter | undefined;
  try {
    stack = await startBenchStack({ services: SERVICES });
    db = await connectRunsDatabase(stack.databaseUrl);
    meter = await openCostMeter({ stack, services: SERVICES });
    // Named, so that the CPU meter leaves this connection's backend out of the platform's.
    const benchUrl = new URL(stack.databaseUrl);
    benchUrl.searchParams.set('application_name', BENCH_APPLICATION_NAME);
    prisma = createPrismaClient(benchUrl.toString(), { max: 1 });
    const scopes = ['capabilities:quote', 'capabilities:run', 'billing:read'];
    const heavy = await stack.createApiKey({
      scopes,
      clientName: 'bench-stored-heavy',
      balanceUsd: '100000',
    });
    const typical = await stack.createApiKey({ scopes, clientName: 'bench-stored-typical' });
    const template = await templateRun(stack, db, heavy);
    const columns = await runColumns(db);
    const sizes: SizeFigures[] = [];
    let stored = 0;
    for (const size of SIZES) {
      const connection = db;
      const from = stored + 1;
      const seedSeconds = await timed(() =>
        seed(connection, columns, template, heavy.clientId, typical.clientId, from, size),
      );
      // VACUUM ANALYZE (statistics, visibility map), then a CHECKPOINT: the seed's gigabyte of dirty
      // pages is written out now rather than by a checkpoint in the middle of the measurement.
      const vacuumSeconds = await timed(async () => {
        await connection.query('VACUUM ANALYZE orchestrator.runs, wallet.ledger_entries');
        await connection.query('CHECKPOINT').catch(() => undefined); // needs superuser or pg_checkpoint
      });
      stored = size;
      sizes.push(
        await measureSize(
          stack,
          connection,
          prisma,
          heavy,
          typical,
          size,
          seedSeconds,
          vacuumSeconds,
          // The first size is measured right after the stack started: a longer warm-up, or its rows
          // measure the services' JIT and first connections (seen: 0.33×–2.06× swings without it).
          sizes.length === 0
            ? { ...options, warmupSeconds: Math.max(options.warmupSeconds, FIRST_WARMUP_S) }
            : options,
          meter,
        ),
      );
    }
    console.log(report(sizes, options));
    console.log(formatRowCosts(sizes.flatMap((size) => [size.status, size.heavyUsage, size.typicalUsage])));
  } finally {
    await meter?.close();
    await prisma?.$disconnect().catch(() => undefined);
    await db?.end().catch(() => undefined);
    await stack?.close();
  }
}
