// A closed-loop load generator for the quote-first flow: `connections` loops, each doing
// POST …/quote then POST …/run (a fresh Idempotency-Key per pair) back to back until the duration
// ends. autocannon records requests one by one; a quote+run pair is the unit a client experiences,
// so its latency is measured here, around both requests.

export interface PairTarget {
  gatewayUrl: string;
  /** Keys the connections use, round robin (one client each): one key = every run under one client's lock. */
  apiKeys: readonly string[];
  slug: string;
  /** The input of pair `n` (n counts pairs of this run from 0). */
  inputFor: (n: number) => Record<string, unknown>;
}

export interface PairLoadResult {
  /** Pairs whose run was accepted (202/200), per second of the run. */
  pairsPerSecond: number;
  pairs: number;
  /** Latency of accepted pairs (quote + run), ms. */
  p50Ms: number;
  p99Ms: number;
  /** Latency of each half, ms (p50/p99). */
  quote: { p50Ms: number; p99Ms: number };
  run: { p50Ms: number; p99Ms: number };
  /** Answers per step and status, e.g. `{ 'quote 200': 5120, 'run 202': 5120 }`. */
  statusCounts: Record<string, number>;
  /** Requests that threw (connection refused, timeout). */
  errors: number;
  durationSeconds: number;
}

// ms: a request without an answer by then counts as an error.
const REQUEST_TIMEOUT_MS = 30_000;

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

async function post(url: string, apiKey: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const json: unknown = await response.json().catch(() => undefined);
  return { status: response.status, json };
}

function field(json: unknown, path: readonly string[]): string | undefined {
  let value: unknown = json;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !(key in value)) return undefined;
    value = Reflect.get(value, key);
  }
  return typeof value === 'string' ? value : undefined;
}

export async function measurePairs(
  target: PairTarget,
  connections: number,
  durationSeconds: number,
  label: string,
): Promise<PairLoadResult> {
  const base = `${target.gatewayUrl}/api/capabilities/${target.slug}`;
  const pairMs: number[] = [];
  const quoteMs: number[] = [];
  const runMs: number[] = [];
  const statusCounts: Record<string, number> = {};
  let errors = 0;
  let n = 0;
  const count = (step: string, status: number) => {
    const key = `${step} ${status}`;
    statusCounts[key] = (statusCounts[key] ?? 0) + 1;
  };
  const started = performance.now();
  const endAt = started + durationSeconds * 1_000;

  const loop = async (connection: number): Promise<void> => {
    const apiKey = target.apiKeys[connection % target.apiKeys.length] ?? '';
    while (performance.now() < endAt) {
      const i = n;
      n += 1;
      const input = target.inputFor(i);
      const t0 = performance.now();
      try {
        const quote = await post(`${base}/quote`, apiKey, { input });
        const t1 = performance.now();
        quoteMs.push(t1 - t0);
        count('quote', quote.status);
        const quoteId = field(quote.json, ['quote', 'quote_id']);
        if (quote.status !== 200 || quoteId === undefined) continue;
        const run = await post(
          `${base}/run`,
          apiKey,
          { input, quote_id: quoteId },
          { 'idempotency-key': `bench-${label}-${i}` },
        );
        const t2 = performance.now();
        runMs.push(t2 - t1);
        count('run', run.status);
        if ((run.status === 202 || run.status === 200) && field(run.json, ['run_id']) !== undefined) {
          pairMs.push(t2 - t0);
        }
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, connection) => loop(connection)));
  const seconds = (performance.now() - started) / 1_000;
  const sort = (values: number[]) => [...values].sort((a, b) => a - b);
  const pairs = sort(pairMs);
  const quotes = sort(quoteMs);
  const runs = sort(runMs);
  return {
    pairsPerSecond: pairs.length / seconds,
    pairs: pairs.length,
    p50Ms: percentile(pairs, 50),
    p99Ms: percentile(pairs, 99),
    quote: { p50Ms: percentile(quotes, 50), p99Ms: percentile(quotes, 99) },
    run: { p50Ms: percentile(runs, 50), p99Ms: percentile(runs, 99) },
    statusCounts,
    errors,
    durationSeconds: seconds,
  };
}
