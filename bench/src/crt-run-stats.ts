// Where a crt run's time goes, read from the runs the bench created (orchestrator.runs of one
// client). The orchestrator writes created_at when it inserts the run (before the wallet quote, in
// the same transaction) and dispatched_at once the job is queued; the worker's `started` and
// `completed` reports carry started_at and finished_at (worker clock, same host) and
// metrics.provider_ms (time spent waiting on providers, retries included); the orchestrator sets
// updated_at when it applies the `completed` report, the last write of a completed run.
import { Client } from 'pg';
import { BENCH_APPLICATION_NAME } from './cpu-cost';

// ms between two looks while runs are still queued or running.
const SETTLE_POLL_MS = 250;

/** p50 and p99 in ms; null when no run had the value. */
export interface Percentiles {
  p50: number | null;
  p99: number | null;
}

export interface RunTimeSplit {
  /** Runs per status, e.g. `{ completed: 5120, failed: 2 }`. */
  statuses: Record<string, number>;
  /** Completed runs per metrics.provider (`crt.sh`, `certspotter`) and per metrics.cache. */
  providers: Record<string, number>;
  caches: Record<string, number>;
  // The split, over completed runs only.
  /** created_at → started_at: wallet quote in the insert transaction, enqueue, wait for a worker slot. */
  queueWait: Percentiles;
  /** started_at → finished_at: the worker's whole job (provider fetch, parsing, building the result). */
  worker: Percentiles;
  /** metrics.provider_ms: of the worker's time, the wait on the provider. */
  provider: Percentiles;
  /** created_at → finished_at. */
  total: Percentiles;
  // Finer, beside the split above:
  /** created_at → dispatched_at: wallet quote, commit, enqueue; written after the enqueue returns, so a worker may start first. */
  dispatch: Percentiles;
  /** finished_at → updated_at: the `completed` report through its queue until the orchestrator stored it. */
  report: Percentiles;
  /** created_at → updated_at: the run as the orchestrator saw it, from insert to stored result. */
  recorded: Percentiles;
}

/** A connection to the stack's database (close it with `end()`). */
export async function connectRunsDatabase(databaseUrl: string): Promise<Client> {
  // Named, so that the CPU meter (cpu-cost.ts) leaves this connection's backend out of the platform's.
  const client = new Client({ connectionString: databaseUrl, application_name: BENCH_APPLICATION_NAME });
  await client.connect();
  return client;
}

/**
 * Waits until no run of the client is queued, running or retrying (requests cut off when the load
 * generator stopped still finish their runs); false when some still are after `timeoutMs`.
 */
export async function waitForRunsToSettle(db: Client, clientId: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ open: number }>(
      `SELECT count(*)::int AS open FROM orchestrator.runs
        WHERE client_id = $1 AND status IN ('queued', 'running', 'retrying')`,
      [clientId],
    );
    if ((rows[0]?.open ?? 0) === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/** Runs per value of `expression` (one of this file's constants, never outside input). */
async function countBy(
  db: Client,
  expression: string,
  clientIds: readonly string[],
  where = 'TRUE',
): Promise<Record<string, number>> {
  const { rows } = await db.query<{ key: string | null; n: number }>(
    `SELECT ${expression} AS key, count(*)::int AS n FROM orchestrator.runs
      WHERE client_id = ANY($1::uuid[]) AND ${where} GROUP BY 1 ORDER BY 2 DESC`,
    [clientIds],
  );
  return Object.fromEntries(rows.map((row) => [row.key ?? 'none', row.n]));
}

function percentiles(values: unknown): Percentiles {
  if (!Array.isArray(values)) return { p50: null, p99: null };
  const [p50, p99] = values.map((value) => (typeof value === 'number' ? value : null));
  return { p50: p50 ?? null, p99: p99 ?? null };
}

/** The split of the runs of one client or several (call waitForRunsToSettle first). */
export async function runTimeSplit(db: Client, clients: string | readonly string[]): Promise<RunTimeSplit> {
  const clientIds = typeof clients === 'string' ? [clients] : clients;
  // ms; percentile_cont interpolates and skips nulls (a run without metrics.provider_ms).
  const { rows } = await db.query<
    Record<
      'queue_ms' | 'worker_ms' | 'provider_ms' | 'total_ms' | 'dispatch_ms' | 'report_ms' | 'recorded_ms',
      unknown
    >
  >(
    `SELECT
       percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP
         (ORDER BY (extract(epoch FROM started_at - created_at) * 1000)::float8) AS queue_ms,
       percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP
         (ORDER BY (extract(epoch FROM finished_at - started_at) * 1000)::float8) AS worker_ms,
       percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP
         (ORDER BY (metrics->>'provider_ms')::float8) AS provider_ms,
       percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP
         (ORDER BY (extract(epoch FROM finished_at - created_at) * 1000)::float8) AS total_ms,
       percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP
         (ORDER BY (extract(epoch FROM dispatched_at - created_at) * 1000)::float8) AS dispatch_ms,
       percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP
         (ORDER BY (extract(epoch FROM updated_at - finished_at) * 1000)::float8) AS report_ms,
       percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP
         (ORDER BY (extract(epoch FROM updated_at - created_at) * 1000)::float8) AS recorded_ms
     FROM orchestrator.runs WHERE client_id = ANY($1::uuid[]) AND status = 'completed'`,
    [clientIds],
  );
  const row = rows[0];
  return {
    statuses: await countBy(db, 'status::text', clientIds),
    providers: await countBy(db, "metrics->>'provider'", clientIds, "status = 'completed'"),
    caches: await countBy(db, "metrics->>'cache'", clientIds, "status = 'completed'"),
    queueWait: percentiles(row?.queue_ms),
    worker: percentiles(row?.worker_ms),
    provider: percentiles(row?.provider_ms),
    total: percentiles(row?.total_ms),
    dispatch: percentiles(row?.dispatch_ms),
    report: percentiles(row?.report_ms),
    recorded: percentiles(row?.recorded_ms),
  };
}
