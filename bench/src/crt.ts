// Issue 3's benchmark: crt runs through the whole platform (gateway → orchestrator → queue →
// worker → provider → stored run → gateway), with the providers on loopback and the per-apex cache
// off, so every request is a new run with a provider call. Measured with 1 worker process, then
// with a second one on the same queues; the runs' own timestamps say where the time went. Issue 15:
// a bare BullMQ round trip is measured in the same run, before the phases, as the baseline the
// crt figures are a ratio of.

import type { StackReplica, TestApiKey, TestStack } from '@svc/testkit';
import type { Client } from 'pg';
import { measureBullmqRoundTrip } from './bullmq-baseline';
import { announcedString, type ChildServer, startChildServer } from './child-server';
import { type CostMeter, openCostMeter } from './cpu-cost';
import { type CrtPhase, formatCrtReport } from './crt-report';
import { connectRunsDatabase, type RunTimeSplit, runTimeSplit, waitForRunsToSettle } from './crt-run-stats';
import { type LoadOptions, type LoadTarget, measure } from './load';
import { startBenchStack } from './stack-start';
import { announcedWorkers, slotsOf } from './worker-heartbeats';

/** Distinct apexes the requests cycle through (the fake provider sizes its answer per apex). */
const APEX_COUNT = 300;
/** Registrable suffixes of the Public Suffix List, so every generated apex passes validation. */
const SUFFIXES = ['com', 'net', 'org', 'io', 'co.uk', 'de', 'dev', 'com.au'];
/** Worker processes per phase, in order: the stack's own worker, then one replica more. */
const WORKER_COUNTS = [1, 2] as const;
/** The platform's processes, each counted in the CPU per run. */
const SERVICES = ['registry', 'wallet', 'orchestrator', 'worker', 'gateway'] as const;
// s: a request without an answer by then is an error. Above the gateway's CRT_RUN_WAIT_MS (55 s,
// after which it answers 202), so a slow run shows up as a 202, not as a client-side timeout.
const REQUEST_TIMEOUT_S = 60;
// ms: how long the bench waits for runs cut off by the end of a phase before it reads the split.
const SETTLE_TIMEOUT_MS = 120_000;

export function benchApexes(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const suffix = SUFFIXES[i % SUFFIXES.length] ?? 'com';
    return `crt-bench-${String(i).padStart(4, '0')}.${suffix}`;
  });
}

/** POST /api/capabilities/crt/run as one client, a different apex per request, no Idempotency-Key. */
function crtTarget(stack: TestStack, key: TestApiKey, apexes: readonly string[], name: string): LoadTarget {
  return {
    name,
    url: `${stack.gatewayUrl}/api/capabilities/crt/run`,
    method: 'POST',
    headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json' },
    bodyFor: (n: number) =>
      JSON.stringify({ input: { apex: apexes[n % apexes.length], include_first_seen: true } }),
    timeoutSeconds: REQUEST_TIMEOUT_S,
  };
}

/** A fresh client per warm-up and per measurement, so each one's runs can be read apart. */
function runClient(stack: TestStack, label: string): Promise<TestApiKey> {
  return stack.createApiKey({ scopes: ['capabilities:run'], clientName: `bench-crt-${label}` });
}

/**
 * One run before any load: the whole path must answer 200 with a completed run, else the bench
 * stops here with the answer (a load of 4xx/5xx answers would measure nothing useful).
 */
async function preflight(stack: TestStack, apex: string): Promise<void> {
  const key = await runClient(stack, 'preflight');
  const answer = await stack.fetch('/api/capabilities/crt/run', {
    method: 'POST',
    apiKey: key.apiKey,
    json: { input: { apex, include_first_seen: true } },
  });
  const body: unknown = answer.json;
  const completed =
    typeof body === 'object' && body !== null && 'status' in body && body.status === 'completed';
  if (answer.status !== 200 || !completed) {
    throw new Error(
      `crt preflight run answered ${answer.status}, not a completed run: ${answer.text.slice(0, 2_000)}`,
    );
  }
}

async function settle(db: Client, clientId: string, what: string): Promise<void> {
  if (!(await waitForRunsToSettle(db, clientId, SETTLE_TIMEOUT_MS))) {
    console.warn(`[bench crt] ${what}: some runs were still open after ${SETTLE_TIMEOUT_MS} ms`);
  }
}

async function measurePhase(
  stack: TestStack,
  db: Client,
  meter: CostMeter,
  workers: number,
  apexes: readonly string[],
  options: LoadOptions,
): Promise<CrtPhase> {
  const announced = await announcedWorkers(stack.redisUrl, stack.prefix);
  if (announced.length !== workers) {
    throw new Error(`expected ${workers} worker heartbeat(s) before measuring, found ${announced.length}`);
  }
  // A warm-up under another client (JIT, pools, the new worker's first jobs), discarded, and its
  // stragglers finished before the measured load starts.
  if (options.warmupSeconds > 0) {
    const warmup = await runClient(stack, `warmup-${workers}w`);
    await measure(crtTarget(stack, warmup, apexes, 'warm-up'), {
      ...options,
      durationSeconds: options.warmupSeconds,
      warmupSeconds: 0,
    });
    await settle(db, warmup.clientId, 'warm-up');
  }
  const client = await runClient(stack, `${workers}w`);
  const window = await meter.start(`${workers} worker(s)`);
  const load = await measure(crtTarget(stack, client, apexes, `${workers} worker(s)`), {
    ...options,
    warmupSeconds: 0,
  });
  await settle(db, client.clientId, `${workers} worker(s)`);
  const split: RunTimeSplit = await runTimeSplit(db, client.clientId);
  const cost = await window.end(split.statuses.completed ?? 0);
  return { workers, concurrency: announced.map((w) => slotsOf(w, 'crt')), load, split, cost };
}

export async function benchCrt(options: LoadOptions): Promise<void> {
  const providers: ChildServer = await startChildServer('fake-providers-server.ts');
  let stack: TestStack | undefined;
  let db: Client | undefined;
  let meter: CostMeter | undefined;
  const replicas: StackReplica[] = [];
  try {
    // The cache off so every run calls the provider.
    stack = await startBenchStack({
      services: SERVICES,
      env: {
        CRT_SH_URL: announcedString(providers, 'crtShUrl'),
        CERTSPOTTER_URL: announcedString(providers, 'certSpotterUrl'),
        CRT_CACHE_TTL_MS: '0',
      },
    });
    db = await connectRunsDatabase(stack.databaseUrl);
    meter = await openCostMeter({ stack, services: SERVICES, replicas: () => replicas });
    const apexes = benchApexes(APEX_COUNT);
    await preflight(stack, apexes[0] ?? 'example.com');
    // On the stack's Redis, with the stack idle: the same Redis and machine the runs then use.
    const baseline = await measureBullmqRoundTrip(stack.redisUrl, options);
    const phases: CrtPhase[] = [];
    for (const workers of WORKER_COUNTS) {
      while (replicas.length + 1 < workers) replicas.push(await stack.startReplica('worker'));
      phases.push(await measurePhase(stack, db, meter, workers, apexes, options));
    }
    console.log(
      formatCrtReport(phases, {
        ...options,
        baseline,
        apexCount: APEX_COUNT,
        concurrencyIsDefault:
          process.env.WORKER_CONCURRENCY === undefined && process.env.WORKER_SLOTS === undefined,
      }),
    );
  } finally {
    await meter?.close();
    await db?.end().catch(() => undefined);
    await stack?.close(); // stops the replicas too
    await providers.stop();
  }
}
