import { randomUUID } from 'node:crypto';
import { StatementCounter } from '@svc/testkit';
import { Client } from 'pg';
import { PII_RESULT_OF_X, runDriver, startTestPlatform, type TestPlatform } from '../src';

/**
 * What one operation of the run path costs in statements, commits and hops (issue 25: "a regression
 * here should fail CI, not wait for the next bench"), counted on the real handlers of the registry,
 * wallet and orchestrator (in this process, on the in-memory transport: every hop is recorded):
 * statements and commits as the services' Prisma client sends them (StatementCounter), hops as the
 * RPC calls made, the gateway's and the worker's included (the run driver makes those as they do).
 *
 * The figures are today's. Lowering one is progress: change it here with the change that does it
 * (docs/performance.md keeps the history). Raising one needs a reason in the same commit.
 */

const CLIENT = { id: randomUUID(), name: 'cost' };

const counter = new StatementCounter();
let platform: TestPlatform;
/** Reads the database apart from the services (its statements are not theirs). */
let reader: Client;

beforeAll(async () => {
  platform = await startTestPlatform({
    label: 'runcost',
    clients: [CLIENT],
    openingBalanceUsd: '5.00',
    onStatement: counter.observe,
    // As in production (CAPABILITY_CACHE_TTL_MS): a warm orchestrator does not ask the registry.
    capabilityCacheTtlMs: 60_000,
  });
  reader = new Client({ connectionString: platform.database.url });
  await reader.connect();
});

afterAll(async () => {
  await reader?.end();
  await platform?.close();
});

/** Waits until the run's hold is captured or released (the orchestrator settles it in the background). */
async function settled(runId: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    const { rows } = await reader.query<{ settled: boolean }>(
      'SELECT settled_at IS NOT NULL AS settled FROM orchestrator.runs WHERE client_id = $1 AND public_id = $2',
      [CLIENT.id, runId],
    );
    if (rows[0]?.settled === true) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`run ${runId} was not settled within 5 s`);
}

/** The RPC calls made since `from` (an index of platform.rpc.calls()), as `service.method`. */
function hopsSince(from: number): string[] {
  return platform.rpc
    .calls()
    .slice(from)
    .map((call) => `${call.service}.${call.method}`);
}

/** The run's internal id, job and attempt, as its job carries them to the worker (read apart). */
async function jobOf(runId: string): Promise<{ run_id: string; job_id: string; attempt: number }> {
  const { rows } = await reader.query<{ run_id: string; job_id: string; attempt: number }>(
    'SELECT id::text AS run_id, job_id, attempts AS attempt FROM orchestrator.runs WHERE client_id = $1 AND public_id = $2',
    [CLIENT.id, runId],
  );
  const job = rows[0];
  if (job === undefined) throw new Error(`run ${runId} not found`);
  return job;
}

/** A paid pii-redact run from quote to settlement, as the gateway and a worker drive it. */
async function paidRun(): Promise<string> {
  const orchestrator = platform.client('orchestrator');
  // The gateway's two calls (runDriver: quote, then startRun with the quote and a key).
  const runId = await runDriver(platform).startRun(CLIENT.id, 'pii-redact', { text: 'x' });
  // The worker's two: the job names the run, its job id; the claim makes attempt 1.
  const job = await jobOf(runId);
  const claim = await orchestrator.claimAttempt({ run_id: job.run_id, job_id: job.job_id });
  if (!claim.go) throw new Error(`claim refused: ${claim.reason}`);
  await orchestrator.reportRun({
    ...job,
    attempt: job.attempt + 1,
    event: 'completed',
    result: PII_RESULT_OF_X,
    at: new Date().toISOString(),
  });
  await settled(runId);
  return runId;
}

it('a paid quote + run + settlement (pii-redact): statements, commits and hops', async () => {
  // One run first: caches (the orchestrator's capability records, prepared plans) warm, as on a
  // running platform.
  await paidRun();

  counter.take();
  const from = platform.rpc.calls().length;
  await paidRun();
  const { sql, ...figures } = counter.take();
  const hops = hopsSince(from);

  // Issue 25's text counted 24 statements, 8 commits and 7 hops the same way (the gateway's and the
  // worker's hops included). Since: the quote's read of its own fresh id before the insert is gone.
  expectCost(
    { ...figures, hops },
    {
      statements: 23,
      // Every transaction, read-only autocommitted statements included; the ones that wrote apart.
      commits: 12,
      writeCommits: 8,
      hops: [
        'orchestrator.quote',
        'wallet.issueQuote',
        'orchestrator.startRun',
        'wallet.holdForRun',
        'orchestrator.claimAttempt',
        'orchestrator.reportRun',
        'wallet.settle',
      ],
    },
    sql,
  );
});

it('a crt run (free, no quote): statements, commits and hops', async () => {
  const orchestrator = platform.client('orchestrator');
  const crtRun = async (apex: string) => {
    const { run } = await orchestrator.startCrtRun({
      client_id: CLIENT.id,
      input: { apex, include_first_seen: false, limit: 100 },
      client_type: 'api',
    });
    // The test platform's crt worker takes the job, claims it and reports it completed.
    await finished(run.run_id);
  };
  await crtRun('warm-up.example');

  counter.take();
  const from = platform.rpc.calls().length;
  await crtRun('cost.example');
  const { sql, ...figures } = counter.take();
  expectCost(
    { ...figures, hops: hopsSince(from) },
    {
      statements: 4,
      commits: 4,
      writeCommits: 3,
      hops: ['orchestrator.startCrtRun', 'orchestrator.claimAttempt', 'orchestrator.reportRun'],
    },
    sql,
  );
});

/** Waits until the run is completed (read apart from the services). */
async function finished(runId: string): Promise<void> {
  for (let i = 0; i < 500; i += 1) {
    const { rows } = await reader.query<{ status: string }>(
      'SELECT status::text AS status FROM orchestrator.runs WHERE client_id = $1 AND public_id = $2',
      [CLIENT.id, runId],
    );
    if (rows[0]?.status === 'completed') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`run ${runId} did not complete within 5 s`);
}

interface Cost {
  statements: number;
  commits: number;
  writeCommits: number;
  hops: string[];
}

/** `actual` is `expected`; else the failure lists the statements sent, so the change can be read. */
function expectCost(actual: Cost, expected: Cost, sql: readonly string[]): void {
  try {
    expect(actual).toEqual(expected);
  } catch (err) {
    throw new Error(
      `${err instanceof Error ? err.message : String(err)}\n\nstatements sent:\n${sql.join('\n')}`,
    );
  }
}
