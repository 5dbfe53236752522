import { randomUUID } from 'node:crypto';
import { enqueueJob, type JobProcessor, processJobs } from '@svc/bus';
import { type CapabilityOutcome, type MessageCatalog, messageCatalog } from '@svc/capabilities';
import type { CrtInput } from '@svc/contracts';
import { createLogger } from '@svc/log';
import { createTestBus, pollUntil, type TestBus } from '@svc/testkit';
import { ActiveRuns } from '../src/domain/capability/active-runs';
import { capabilityJobHandler } from '../src/handlers/capability-job';
import { FakeOrchestrator } from './support/fake-orchestrator';

// The capability.crt consumer in-process, on a real Redis, with runners that misbehave in ways the
// fake providers cannot produce: a bug (thrown error) on every attempt, and one that recovers.

/** What crt's handler runs per attempt (packages/capabilities/src/crt/crt-runner.ts CrtRunner). */
type CrtRunner = (request: CrtInput, signal: AbortSignal) => Promise<CapabilityOutcome>;

const logger = createLogger({ service: 'crt-job-test', level: 'silent' });
let testBus: TestBus<MessageCatalog>;
let consumers: JobProcessor[] = [];
const orchestrator = new FakeOrchestrator();
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
        { attempts: orchestrator.port, logger, activeRuns: new ActiveRuns() },
        ({ apex, include_first_seen, limit }, signal) => runCrt({ apex, include_first_seen, limit }, signal),
      ),
      {
        concurrency: 2,
      },
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
    { jobId: `run-${runId}-1` },
  );
  return runId;
}

function reportsUntilTerminal(runId: string) {
  return pollUntil(
    () => {
      const mine = orchestrator.reportsOf(runId);
      if (!mine.some((r) => r.event === 'completed' || r.event === 'failed')) return undefined;
      // Each try claims first: `claim` marks where an attempt started.
      return [
        ...orchestrator.claimsOf(runId).map((_claim, i) => `claim-${i + 1}`),
        ...mine.map((r) => `${r.event}-${r.attempt}`),
      ].sort();
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
      ['claim-1', 'retrying-1', 'claim-2', 'retrying-2', 'claim-3', 'failed-3'].sort(),
    );
    const failed = orchestrator.reportsOf(runId).find((r) => r.event === 'failed');
    expect(failed).toMatchObject({
      event: 'failed',
      attempt: 3,
      error: { code: 'internal', message: 'internal error' },
    });
    const retrying = orchestrator.reportsOf(runId).filter((r) => r.event === 'retrying');
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
      ['claim-1', 'retrying-1', 'claim-2', 'completed-2'].sort(),
    );
  });
});
