import { randomUUID } from 'node:crypto';
import {
  type Bus,
  createBus,
  enqueueJob,
  type JobProcessor,
  processJobs,
  type RpcServer,
  serviceClient,
} from '@svc/bus';
import { type MessageCatalog, messageCatalog } from '@svc/capabilities';
import { createLogger } from '@svc/log';
import { type PrivateRedis, pollUntil, startPrivateRedis, testBusEncryptionKeys } from '@svc/testkit';
import type { AttemptPort } from '../src/adapters/orchestrator-attempts';
import { ActiveRuns } from '../src/domain/capability/active-runs';
import { capabilityJobHandler } from '../src/handlers/capability-job';
import { OUTAGE_ASK_POLICIES } from './support/ask-policies';
import { FakeOrchestrator } from './support/fake-orchestrator';

// Redis down, then restarted empty, while a worker holds a finished run's result (issue 15): a Redis of this
// suite's own (killed and started again without data), the worker's capability job handler with
// its real RPC client, and the orchestrator's claim and report methods answered (in memory) on a
// bus of their own, as another process would. The job itself is gone with Redis; the worker keeps
// asking, its RPC client reconnects, and the result is reported once.

const logger = createLogger({ service: 'redis-restart-test', level: 'silent' });
let redis: PrivateRedis;
let workerBus: Bus<MessageCatalog>;
let orchestratorBus: Bus<MessageCatalog>;
let server: RpcServer;
let consumer: JobProcessor;
const orchestrator = new FakeOrchestrator();
const executions: string[] = [];
/** Report calls that got no answer (Redis down). */
let unanswered = 0;
let release: () => void = () => undefined;
const gate = new Promise<void>((resolve) => {
  release = resolve;
});

function bus(url: string, prefix: string): Bus<MessageCatalog> {
  return createBus({
    catalog: messageCatalog,
    redisUrl: url,
    prefix,
    logger,
    encryptionKeys: testBusEncryptionKeys(),
  });
}

/** The port, counting the report calls that failed. */
function countingFailures(port: AttemptPort): AttemptPort {
  return {
    claimAttempt: (request) => port.claimAttempt(request),
    reportRun: async (report) => {
      try {
        return await port.reportRun(report);
      } catch (err) {
        unanswered += 1;
        throw err;
      }
    },
  };
}

beforeAll(async () => {
  redis = await startPrivateRedis();
  const prefix = `rr${randomUUID().slice(0, 8)}`;
  workerBus = bus(redis.url, prefix);
  orchestratorBus = bus(redis.url, prefix);
  server = orchestrator.serve(orchestratorBus);
  await server.waitUntilReady();
  const handler = capabilityJobHandler(
    'capability.pii-redact',
    {
      attempts: countingFailures(serviceClient(workerBus, 'orchestrator', { timeoutMs: 2_000 })),
      logger,
      activeRuns: new ActiveRuns(),
      ask: OUTAGE_ASK_POLICIES,
    },
    async (payload: { run_id: string }) => {
      executions.push(payload.run_id);
      await gate;
      return { kind: 'completed', result: { held: 'through a restart' } };
    },
  );
  consumer = processJobs(workerBus, 'capability.pii-redact', handler, { concurrency: 1 });
  await consumer.waitUntilReady();
}, 60_000);

afterAll(async () => {
  release();
  await consumer?.close();
  await server?.close();
  await workerBus?.close();
  await orchestratorBus?.close();
  await redis?.stop();
});

it('reports a result held across a Redis restart once, after the RPC client reconnects', async () => {
  const runId = randomUUID();
  await enqueueJob(
    workerBus,
    'capability.pii-redact',
    { run_id: runId, input: { text: 'x' } },
    { jobId: `run-${runId}-1` },
  );
  await pollUntil(() => (executions.includes(runId) ? true : undefined), {
    what: 'the runner to start',
    timeoutMs: 20_000,
  });
  // Redis goes away with everything in it (the job included) while the result is being reported.
  await redis.stop();
  release();
  await pollUntil(() => (unanswered >= 2 ? true : undefined), {
    what: 'report calls failing while Redis is down',
    timeoutMs: 30_000,
  });
  await redis.restartEmpty();
  const reports = await pollUntil(
    () => {
      const mine = orchestrator.reportsOf(runId);
      return mine.length > 0 ? mine : undefined;
    },
    { what: 'the report after the restart', timeoutMs: 60_000 },
  );
  expect(reports).toEqual([
    expect.objectContaining({
      event: 'completed',
      job_id: `run-${runId}-1`,
      attempt: 1,
      result: { held: 'through a restart' },
    }),
  ]);
  expect(executions).toEqual([runId]);
}, 120_000);
