// The crt bench's printout: throughput and client latency per worker count, then where a run's
// time goes, from the stored runs.
import type { Percentiles, RunTimeSplit } from './crt-run-stats';
import type { LoadOptions, LoadResult } from './load';
import { formatColumns } from './report';

/** One measured phase: `workers` worker processes on the crt queue. */
export interface CrtPhase {
  workers: number;
  /** WORKER_CONCURRENCY of each worker process, from its heartbeat (null: not announced). */
  concurrency: (number | null)[];
  load: LoadResult;
  split: RunTimeSplit;
}

export interface CrtReportInfo extends LoadOptions {
  apexCount: number;
  /** True when WORKER_CONCURRENCY was left unset, so the workers run with their default. */
  concurrencyIsDefault: boolean;
}

function ms(value: number | null): string {
  if (value === null) return '-';
  return value < 10 ? value.toFixed(1) : value.toFixed(0);
}

function pair(p: Percentiles): string {
  return `${ms(p.p50)} / ${ms(p.p99)}`;
}

/** `{ '200': 10, '202': 1 }` → `200×10, 202×1`. */
function counts(record: Record<string, number>): string {
  const entries = Object.entries(record);
  return entries.length === 0 ? '-' : entries.map(([key, n]) => `${key}×${n}`).join(', ');
}

function nonOk(load: LoadResult): Record<string, number> {
  return Object.fromEntries(Object.entries(load.statusCounts).filter(([status]) => status !== '200'));
}

/** Completed runs (HTTP 200) per second of the measured phase. */
export function runsPerSecond(load: LoadResult): number {
  return load.durationSeconds > 0 ? (load.statusCounts['200'] ?? 0) / load.durationSeconds : 0;
}

export function formatCrtReport(phases: readonly CrtPhase[], info: CrtReportInfo): string {
  const concurrency = [...new Set(phases.flatMap((p) => p.concurrency))]
    .map((c) => String(c ?? '?'))
    .join('/');
  const intro =
    `\ncrt runs (POST /api/capabilities/crt/run): ${info.connections} connections, ` +
    `${info.durationSeconds} s per phase after a ${info.warmupSeconds} s warm-up; every request a new run ` +
    `(no Idempotency-Key) over ${info.apexCount} apexes, include_first_seen true, limit 100; providers ` +
    'on loopback (fake crt.sh / Cert Spotter of @svc/testkit, own process); per-apex cache off ' +
    `(CRT_CACHE_TTL_MS=0); WORKER_CONCURRENCY ${concurrency}${info.concurrencyIsDefault ? ' (default)' : ''} ` +
    'per worker process; load generator on the same machine.\n';

  const throughput = formatColumns(
    ['workers', 'runs/s', 'p50 ms', 'p99 ms', 'mean ms', 'answers', 'non-200', 'errors', 'non-200 by status'],
    phases.map(({ workers, load }) => [
      String(workers),
      runsPerSecond(load).toFixed(1),
      ms(load.p50Ms),
      ms(load.p99Ms),
      ms(load.meanMs),
      String(load.requests),
      String(load.requests - (load.statusCounts['200'] ?? 0)),
      load.timeouts > 0 ? `${load.errors} (${load.timeouts} timeouts)` : String(load.errors),
      counts(nonOk(load)),
    ]),
  );

  const split = formatColumns(
    ['workers', 'runs', 'queue wait', 'worker', 'provider', 'created→finished', 'gateway+bus ≈'],
    phases.map(({ workers, load, split: s }) => {
      const total = s.total.p50;
      const gateway = total === null ? '-' : ms(load.p50Ms - total);
      return [
        String(workers),
        counts(s.statuses),
        pair(s.queueWait),
        pair(s.worker),
        pair(s.provider),
        pair(s.total),
        gateway,
      ];
    }),
  );
  const finer = formatColumns(
    ['workers', 'created→dispatched', 'finished→recorded', 'created→recorded', 'gateway ≈'],
    phases.map(({ workers, load, split: s }) => {
      const recorded = s.recorded.p50;
      const gateway = recorded === null ? '-' : ms(load.p50Ms - recorded);
      return [String(workers), pair(s.dispatch), pair(s.report), pair(s.recorded), gateway];
    }),
  );
  const providers = phases
    .map(
      ({ workers, split: s }) =>
        `${workers} worker(s): provider ${counts(s.providers)}; cache ${counts(s.caches)}`,
    )
    .join('\n');

  return [
    intro,
    throughput,
    '\nruns/s = HTTP 200 answers (completed runs) per second; p50/p99 = client latency of 2xx answers (autocannon).',
    '\nWhere the time goes: p50 / p99 ms over the completed runs of each phase (orchestrator.runs).',
    split,
    [
      '',
      'queue wait       = started_at − created_at: wallet quote inside the insert transaction, commit,',
      '                   enqueue, and the wait for a free worker slot;',
      'worker           = finished_at − started_at: the whole job, provider included;',
      'provider         = metrics.provider_ms: of that, the wait on the (loopback) provider;',
      'gateway+bus ≈    = client p50 − created→finished p50 (a difference of medians, approximate):',
      '                   auth, validation, the startCrtRun RPC, the report → orchestrator → run.finished',
      '                   → gateway hop, and the answer.',
      providers,
    ].join('\n'),
    '\nFiner, same runs (p50 / p99 ms):',
    finer,
    [
      '',
      'created→dispatched = insert, wallet quote, commit, enqueue, then the UPDATE of dispatched_at: written',
      '                     after the enqueue returns, so a worker often starts first (can exceed queue wait);',
      "finished→recorded  = the worker's `completed` report through runs.report until the orchestrator",
      '                     stored it (updated_at);',
      'gateway ≈          = client p50 − created→recorded p50: auth, validation, the startCrtRun RPC',
      '                     hop before the insert, run.finished (carrying the run) → the answer.',
    ].join('\n'),
  ].join('\n');
}
