// The crt bench's printout: throughput and client latency per worker count, then where a run's
// time goes, from the stored runs.
import { describeRoundTrip, type RoundTripResult } from './bullmq-baseline';
import { formatColumns } from './columns';
import { type CpuCost, costTargetLine, formatCpuCost } from './cpu-cost';
import type { Percentiles, RunTimeSplit } from './crt-run-stats';
import type { LoadOptions, LoadResult } from './load';
import { ratioLine } from './report';

/** One measured phase: `workers` worker processes on the crt queue. */
export interface CrtPhase {
  workers: number;
  /** crt slots of each worker process, from its heartbeat (null: not announced). */
  concurrency: (number | null)[];
  load: LoadResult;
  split: RunTimeSplit;
  /** CPU per completed run, from the load's start until its runs have settled. */
  cost: CpuCost;
}

export interface CrtReportInfo extends LoadOptions {
  apexCount: number;
  /** True when neither WORKER_CONCURRENCY nor WORKER_SLOTS was set: crt's `io` workload default. */
  concurrencyIsDefault: boolean;
  /** The bare BullMQ round trip measured in the same run (issue 15's baseline). */
  baseline: RoundTripResult;
}

/** ms: issue 25's bound on the client p99 of a crt run (issue 15's was 150). */
const P99_TARGET_MS = 100;
/** Issue 25: crt runs/s ÷ BullMQ round trips/s (issue 15's was 0.25, measured at 0.025–0.036). */
const RATIO_TARGET = 0.12;
/** Issue 25: CPU ms per run of the platform's processes and of PostgreSQL's backends. */
const COST_TARGET = { platformMs: 2, postgresMs: 0.5 };

/** Issue 25's speed targets for crt, per phase: ratio to the baseline, p99, non-2xx, CPU per run. */
function targetLines(phases: readonly CrtPhase[], baseline: RoundTripResult): string {
  const lines = phases.map(({ workers, load, concurrency, split, cost }) => {
    // Little's law on the worker slots: with every slot busy, each run holds one for slots ÷ runs/s.
    const slots = concurrency.reduce<number>((sum, c) => sum + (c ?? 0), 0);
    const rate = runsPerSecond(load);
    const slotMs = slots > 0 && rate > 0 ? (slots / rate) * 1_000 : null;
    const slot =
      slotMs === null
        ? ''
        : `\n  ${slots} worker slots ÷ ${rate.toFixed(1)} runs/s = ${ms(slotMs)} ms per run in a slot if all were busy, ` +
          `of which the capability (started→finished p50) ${ms(split.worker.p50)} ms: the rest is the job's ` +
          'pick-up, its claim and its report round trips (or idle slots)';
    const p99 = `p99 ${ms(load.p99Ms)} ms (target ≤ ${P99_TARGET_MS}: ${load.p99Ms <= P99_TARGET_MS ? 'met' : 'MISSED'})`;
    const errors = load.non2xx + load.errors;
    return [
      `${workers} worker(s): ${ratioLine('crt runs/s ÷ BullMQ round trips/s', runsPerSecond(load), baseline.perSecond, { atLeast: RATIO_TARGET })};`,
      `  ${p99}; non-2xx + errors ${errors} (target 0: ${errors === 0 ? 'met' : 'MISSED'})`,
      `  ${costTargetLine(cost, COST_TARGET)}${slot}`,
    ].join('\n');
  });
  return ['', describeRoundTrip(baseline), ...lines].join('\n');
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
    `(CRT_CACHE_TTL_MS=0); crt slots ${concurrency}${info.concurrencyIsDefault ? ' (default)' : ''} ` +
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
    formatCpuCost(
      'completed run',
      phases.map((p) => p.cost),
    ),
    targetLines(phases, info.baseline),
    '\nWhere the time goes: p50 / p99 ms over the completed runs of each phase (orchestrator.runs).',
    split,
    [
      '',
      'queue wait       = started_at − created_at: recording the run (wallet quote), enqueue, the wait for',
      "                   a free worker slot; since issue 15 also the worker's claimAttempt RPC (it sets started_at);",
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
      'created→dispatched = before issue 15: insert, wallet quote, commit, enqueue, then the UPDATE of',
      '                     dispatched_at (after the enqueue: can exceed queue wait); since issue 15',
      '                     dispatched_at is written with the run, before the enqueue, so ≈ 0;',
      "finished→recorded  = the worker's `completed` report until the orchestrator stored it (updated_at):",
      '                     a runs.report job before issue 15, the reportRun RPC since;',
      'gateway ≈          = client p50 − created→recorded p50: auth, validation, the startCrtRun RPC',
      '                     hop before the insert, run.finished (carrying the run) → the answer.',
    ].join('\n'),
  ].join('\n');
}
