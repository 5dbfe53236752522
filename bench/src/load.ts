import autocannon from 'autocannon';

export interface LoadTarget {
  /** Row label in the report. */
  name: string;
  url: string;
  headers?: Record<string, string>;
  /** Rewrites each request's path, e.g. to defeat a cache; `n` counts requests of this run. */
  pathFor?: (n: number) => string;
}

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

function run(target: LoadTarget, connections: number, durationSeconds: number): Promise<autocannon.Result> {
  let n = 0;
  const pathFor = target.pathFor;
  return autocannon({
    url: target.url,
    connections,
    duration: durationSeconds,
    headers: target.headers,
    requests: pathFor
      ? [
          {
            setupRequest: (request) => {
              n += 1;
              return { ...request, path: pathFor(n) };
            },
          },
        ]
      : undefined,
  });
}

/** A warm-up run (discarded: JIT, connection pools, caches), then the measured run. */
export async function measure(target: LoadTarget, options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await run(target, options.connections, options.warmupSeconds);
  const result = await run(target, options.connections, options.durationSeconds);
  return {
    name: target.name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
