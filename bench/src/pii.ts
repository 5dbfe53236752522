// Issue 4's benchmark: quote + run of `pii-redact` through the whole platform (gateway →
// orchestrator → registry describe (cached) → wallet quote; then gateway → orchestrator → wallet
// hold under the client lock → queue → worker → report → capture). Each loop of the load generator
// quotes a ~1,500-character text (2 priced units) and runs it with a new Idempotency-Key, at 32
// connections, with 1 worker process and then 2. The runs' own timestamps say how long the work
// behind each accepted run took.
import { type StackReplica, startTestStack, type TestApiKey, type TestStack } from '@svc/testkit';
import type { Client } from 'pg';
import { connectRunsDatabase, runTimeSplit, waitForRunsToSettle } from './crt-run-stats';
import type { LoadOptions } from './load';
import { measurePairs, type PairLoadResult } from './quote-run-load';
import { formatColumns } from './report';
import { announcedWorkers } from './worker-heartbeats';

const WORKER_COUNTS = [1, 2] as const;
// ms: how long the bench waits for runs still queued when a phase ends.
const SETTLE_TIMEOUT_MS = 180_000;
const SAMPLE =
  'Dear customer, your order ships Monday. Questions? Write to support@example.com or call +1 (555) 010-7788. ' +
  'Refunds go to IBAN GB82 WEST 1234 5698 7654 32; the card on file ends 4242. ';

/** ~1,500 characters with e-mail, phone and IBAN in it; `n` makes each input distinct. */
function inputFor(n: number): Record<string, unknown> {
  const text = `Ticket ${n}. ${SAMPLE.repeat(8)}`.slice(0, 1_500);
  return { text };
}

interface PiiPhase {
  workers: number;
  load: PairLoadResult;
  completed: number;
  failed: number;
  queueP50: number | null;
  queueP99: number | null;
  totalP50: number | null;
  totalP99: number | null;
}

function client(stack: TestStack, label: string): Promise<TestApiKey> {
  return stack.createApiKey({
    scopes: ['capabilities:quote', 'capabilities:run'],
    clientName: `bench-pii-${label}`,
    balanceUsd: '100000',
  });
}

async function preflight(stack: TestStack): Promise<void> {
  const key = await client(stack, 'preflight');
  const result = await measurePairs(
    { gatewayUrl: stack.gatewayUrl, apiKey: key.apiKey, slug: 'pii-redact', inputFor },
    1,
    0.001,
    'preflight',
  );
  if (result.pairs !== 1) {
    throw new Error(`pii preflight: no accepted quote+run pair (${JSON.stringify(result.statusCounts)})`);
  }
}

async function phase(stack: TestStack, db: Client, workers: number, options: LoadOptions): Promise<PiiPhase> {
  const announced = await announcedWorkers(stack.redisUrl, stack.prefix);
  if (announced.length !== workers) {
    throw new Error(`expected ${workers} worker heartbeat(s), found ${announced.length}`);
  }
  if (options.warmupSeconds > 0) {
    const warm = await client(stack, `warmup-${workers}w`);
    await measurePairs(
      { gatewayUrl: stack.gatewayUrl, apiKey: warm.apiKey, slug: 'pii-redact', inputFor },
      options.connections,
      options.warmupSeconds,
      `warm-${workers}`,
    );
    await waitForRunsToSettle(db, warm.clientId, SETTLE_TIMEOUT_MS);
  }
  const key = await client(stack, `${workers}w`);
  const load = await measurePairs(
    { gatewayUrl: stack.gatewayUrl, apiKey: key.apiKey, slug: 'pii-redact', inputFor },
    options.connections,
    options.durationSeconds,
    `${workers}w`,
  );
  if (!(await waitForRunsToSettle(db, key.clientId, SETTLE_TIMEOUT_MS))) {
    console.warn(`[bench pii] ${workers} worker(s): runs still open after ${SETTLE_TIMEOUT_MS} ms`);
  }
  const split = await runTimeSplit(db, key.clientId);
  return {
    workers,
    load,
    completed: split.statuses.completed ?? 0,
    failed: split.statuses.failed ?? 0,
    queueP50: split.queueWait.p50,
    queueP99: split.queueWait.p99,
    totalP50: split.total.p50,
    totalP99: split.total.p99,
  };
}

const ms = (value: number | null) => (value === null || Number.isNaN(value) ? '-' : value.toFixed(0));

function report(phases: readonly PiiPhase[], options: LoadOptions): string {
  const header = [
    'workers',
    'pairs/s',
    'pair p50',
    'pair p99',
    'quote p50/p99',
    'run p50/p99',
    'run→done p50/p99',
    'completed',
    'failed',
    'errors',
  ];
  const rows = phases.map((p) => [
    String(p.workers),
    p.load.pairsPerSecond.toFixed(1),
    ms(p.load.p50Ms),
    ms(p.load.p99Ms),
    `${ms(p.load.quote.p50Ms)}/${ms(p.load.quote.p99Ms)}`,
    `${ms(p.load.run.p50Ms)}/${ms(p.load.run.p99Ms)}`,
    `${ms(p.totalP50)}/${ms(p.totalP99)}`,
    String(p.completed),
    String(p.failed),
    String(p.load.errors),
  ]);
  const statuses = phases.map((p) => `${p.workers}w ${JSON.stringify(p.load.statusCounts)}`).join('; ');
  return [
    `pii-redact quote+run, ${options.connections} connections, ${options.durationSeconds} s per phase (latencies in ms)`,
    formatColumns(header, rows),
    `answers: ${statuses}`,
  ].join('\n');
}

export async function benchPii(options: LoadOptions): Promise<void> {
  let stack: TestStack | undefined;
  let db: Client | undefined;
  const replicas: StackReplica[] = [];
  try {
    stack = await startTestStack({
      services: ['registry', 'wallet', 'orchestrator', 'worker', 'gateway'],
      env: { LOG_LEVEL: 'warn' },
      quiet: true,
    });
    db = await connectRunsDatabase(stack.databaseUrl);
    await preflight(stack);
    const phases: PiiPhase[] = [];
    for (const workers of WORKER_COUNTS) {
      while (replicas.length + 1 < workers) replicas.push(await stack.startReplica('worker'));
      phases.push(await phase(stack, db, workers, options));
    }
    console.log(report(phases, options));
  } finally {
    await db?.end().catch(() => undefined);
    await stack?.close();
  }
}
