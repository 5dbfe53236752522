import { randomUUID } from 'node:crypto';
import { enqueueJob, type JobProcessor, processJobs } from '@svc/bus';
import { type CapabilityOutcome, type MessageCatalog, messageCatalog } from '@svc/capabilities';
import type { CrtInput, RunReport } from '@svc/contracts';
import { createLogger } from '@svc/log';
import { createTestBus, pollUntil, type TestBus } from '@svc/testkit';
import { ActiveRuns } from '../src/domain/capability/active-runs';
import { capabilityJobHandler } from '../src/handlers/capability-job';

// The capability.crt consumer in-process, on a real Redis, with runners that misbehave in ways the
// fake providers cannot produce: a bug (thrown error) on every attempt, and one that recovers.

/** What crt's handler runs per attempt (packages/capabilities/src/crt/crt-runner.ts CrtRunner). */
type CrtRunner = (request: CrtInput, signal: AbortSignal) => Promise<CapabilityOutcome>;

const logger = createLogger({ service: 'crt-job-test', level: 'silent' });
let testBus: TestBus<MessageCatalog>;
let consumers: JobProcessor[] = [];
const reports: { jobId: string; report: RunReport }[] = [];
let behaviour: CrtRunner = async () => {
  throw new Error('not set');
};

beforeAll(async () => {
  testBus = createTestBus('crtj', messageCatalog);
  const runCrt: CrtRunner = (request, signal) => behaviour(request, signal);
  consumers = [
    processJobs(
      testBus.bus,
      'capability.crt',
      capabilityJobHandler(
        'capability.crt',
        { bus: testBus.bus, logger, activeRuns: new ActiveRuns() },
        ({ apex, include_first_seen, limit }, signal) => runCrt({ apex, include_first_seen, limit }, signal),
      ),
      {
        concurrency: 2,
      },
    ),
    processJobs(
      testBus.bus,
      'runs.report',
      async (report, context) => {
        reports.push({ jobId: context.jobId, report });
        return { applied: true };
      },
      { concurrency: 4 },
    ),
  ];
  await Promise.all(consumers.map((c) => c.waitUntilReady()));
});

afterAll(async () => {
  await Promise.all(consumers.map((c) => c.close()));
  await testBus.close();
});

async function run(): Promise<string> {
  const runId = randomUUID();
  await enqueueJob(
    testBus.bus,
    'capability.crt',
    { run_id: runId, apex: 'example.com', include_first_seen: false, limit: 10 },
    { jobId: `run-${runId}` },
  );
  return runId;
}

function reportsUntilTerminal(runId: string) {
  return pollUntil(
    () => {
      const mine = reports.filter((r) => r.report.run_id === runId);
      if (!mine.some((r) => r.report.event === 'completed' || r.report.event === 'failed')) return undefined;
      // Reports of one run may be handled out of order: sort by id for a stable comparison.
      return mine.map((r) => r.jobId).sort();
    },
    { what: `a terminal report for run ${runId}`, timeoutMs: 30_000, intervalMs: 50 },
  );
}

describe('capability.crt handler', () => {
  it('reports retrying while attempts remain, then failed (internal) on the last attempt', async () => {
    behaviour = async () => {
      throw new Error('bug: secret-looking detail that must not reach the run');
    };
    const runId = await run();
    expect(await reportsUntilTerminal(runId)).toEqual(
      [
        `report-${runId}-started-1`,
        `report-${runId}-retrying-1`,
        `report-${runId}-started-2`,
        `report-${runId}-retrying-2`,
        `report-${runId}-started-3`,
        `report-${runId}-failed-3`,
      ].sort(),
    );
    const failed = reports.find((r) => r.jobId === `report-${runId}-failed-3`)?.report;
    expect(failed).toMatchObject({
      event: 'failed',
      attempt: 3,
      error: { code: 'internal', message: 'internal error' },
    });
    const retrying = reports.filter((r) => r.report.run_id === runId && r.report.event === 'retrying');
    expect(JSON.stringify(retrying)).not.toContain('secret-looking');
  });

  it('completes on a retry after one unexpected error', async () => {
    let calls = 0;
    behaviour = async (request) => {
      calls += 1;
      if (calls === 1) throw new Error('transient bug');
      return {
        kind: 'completed',
        result: {
          status: 'completed',
          summary: 'x',
          apex: request.apex,
          count: 0,
          limit: request.limit,
          include_first_seen: false,
          observations: [],
          provider: 'crt.sh',
          live_hosts_verified: false,
          disclosure: 'd',
        },
        metrics: { provider: 'crt.sh', provider_ms: 1, cache: 'miss' },
      };
    };
    const runId = await run();
    expect(await reportsUntilTerminal(runId)).toEqual(
      [
        `report-${runId}-started-1`,
        `report-${runId}-retrying-1`,
        `report-${runId}-started-2`,
        `report-${runId}-completed-2`,
      ].sort(),
    );
  });
});
