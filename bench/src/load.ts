import autocannon from 'autocannon';
import { type CostMeter, type CpuCost, mergeCpuCosts } from './cpu-cost';

export interface LoadTarget {
  /** Row label in the report. */
  name: string;
  url: string;
  /** Default GET. */
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Rewrites each request's path, e.g. to defeat a cache; `n` counts requests of this run. */
  pathFor?: (n: number) => string;
  /** Each request's body (e.g. a new crt apex per request); `n` counts requests of this run. */
  bodyFor?: (n: number) => string;
  /** s: a request without an answer by then counts as an error (autocannon's default is 10). */
  timeoutSeconds?: number;
  /**
   * Checks each answer's body (e.g. an MCP tools/call that is HTTP 200 but an error result); the
   * answers it refuses are counted in `rejected`. Collecting bodies costs the client a little.
   */
  acceptBody?: (body: string) => boolean;
}

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  /** Latency percentiles of 2xx answers only (autocannon does not record the others). */
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Of `errors`, the requests that got no answer within the timeout. */
  timeouts: number;
  /** Answers per HTTP status, e.g. `{ '200': 5120, '202': 3 }`. */
  statusCounts: Record<string, number>;
  /** s: how long the measured run lasted. */
  durationSeconds: number;
  /** Answers `acceptBody` refused (0 without it). */
  rejected: number;
  /** CPU per request of the platform, when the measurement had a meter (cpu-cost.ts). */
  cost?: CpuCost;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

function run(
  target: LoadTarget,
  connections: number,
  durationSeconds: number,
  onRejected: () => void,
): Promise<autocannon.Result> {
  let n = 0;
  const { pathFor, bodyFor, acceptBody } = target;
  return autocannon({
    url: target.url,
    connections,
    duration: durationSeconds,
    // Only when set: autocannon rejects an explicit `undefined` method ("undefined HTTP method").
    ...(target.method ? { method: target.method } : {}),
    ...(target.timeoutSeconds ? { timeout: target.timeoutSeconds } : {}),
    headers: target.headers,
    requests:
      pathFor || bodyFor || acceptBody
        ? [
            {
              setupRequest: (request) => {
                n += 1;
                return {
                  ...request,
                  ...(pathFor ? { path: pathFor(n) } : {}),
                  ...(bodyFor ? { body: bodyFor(n) } : {}),
                };
              },
              ...(acceptBody
                ? {
                    onResponse: (_status: number, body: string) => {
                      if (!acceptBody(body)) onRejected();
                    },
                  }
                : {}),
            },
          ]
        : undefined,
  });
}

function statusCounts(result: autocannon.Result): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {}))
    counts[status] = stats.count ?? 0;
  return counts;
}

/** autocannon's summary of one run as the bench's LoadResult (`rejected`: answers acceptBody refused). */
export function toLoadResult(name: string, result: autocannon.Result, rejected: number): LoadResult {
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: result.latency.mean,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts: statusCounts(result),
    durationSeconds: result.duration,
    rejected,
  };
}

/**
 * A warm-up run (discarded: JIT, connection pools, caches), then the measured run; with `meter`, the
 * platform's CPU per request over the measured run (answers of every status count as requests).
 */
export async function measure(
  target: LoadTarget,
  options: LoadOptions,
  meter?: CostMeter,
): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await run(target, options.connections, options.warmupSeconds, () => {});
  let rejected = 0;
  const window = await meter?.start(target.name);
  const result = await run(target, options.connections, options.durationSeconds, () => {
    rejected += 1;
  });
  const measured = toLoadResult(target.name, result, rejected);
  if (window !== undefined) measured.cost = await window.end(measured.requests);
  return measured;
}

/** Two halves of one target's measurement as one result: counts summed, rates over the summed time. */
export function combine(first: LoadResult, second: LoadResult): LoadResult {
  const durationSeconds = first.durationSeconds + second.durationSeconds;
  const statusCounts: Record<string, number> = { ...first.statusCounts };
  for (const [status, n] of Object.entries(second.statusCounts))
    statusCounts[status] = (statusCounts[status] ?? 0) + n;
  const requests = first.requests + second.requests;
  return {
    name: first.name,
    requestsPerSecond: durationSeconds > 0 ? requests / durationSeconds : 0,
    // Percentiles cannot be merged exactly from two summaries: the mean of the halves' p50 and the
    // larger p99 (the pessimistic one).
    p50Ms: (first.p50Ms + second.p50Ms) / 2,
    p99Ms: Math.max(first.p99Ms, second.p99Ms),
    meanMs: (first.meanMs * first.requests + second.meanMs * second.requests) / Math.max(1, requests),
    requests,
    non2xx: first.non2xx + second.non2xx,
    errors: first.errors + second.errors,
    timeouts: first.timeouts + second.timeouts,
    statusCounts,
    durationSeconds,
    rejected: first.rejected + second.rejected,
    ...(first.cost && second.cost ? { cost: mergeCpuCosts(first.cost, second.cost) } : {}),
  };
}

/**
 * A target and its baseline measured in the order baseline, target, target, baseline, each half the
 * duration (after one warm-up of each): on a machine whose load drifts, a drift that is linear in
 * time weighs on both alike, so their ratio holds better than after two back-to-back runs.
 */
export async function measureAgainst(
  baseline: LoadTarget,
  target: LoadTarget,
  options: LoadOptions,
  meters: { baseline?: CostMeter; target?: CostMeter } = {},
): Promise<{ baseline: LoadResult; target: LoadResult }> {
  const half = { ...options, durationSeconds: Math.max(1, options.durationSeconds / 2) };
  const b1 = await measure(baseline, half, meters.baseline);
  const t1 = await measure(target, half, meters.target);
  const t2 = await measure(target, { ...half, warmupSeconds: 0 }, meters.target);
  const b2 = await measure(baseline, { ...half, warmupSeconds: 0 }, meters.baseline);
  return { baseline: combine(b1, b2), target: combine(t1, t2) };
}
