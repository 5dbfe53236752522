import { type Bus, createBus, type JobProcessor, jobQueueName, processJobs, serviceClient } from '@svc/bus';
import { type MessageCatalog, messageCatalog } from '@svc/capabilities';
import { runtimeWorkersKey } from '@svc/contracts';
import { createLogger } from '@svc/log';
import { pollUntil, startTestStack, type TestStack } from '@svc/testkit';
import type { AttemptPort, ClaimAnswer } from '../src/adapters/orchestrator-attempts';
import { waitForReady } from '../src/adapters/redis-ready';
import { ActiveRuns } from '../src/domain/capability/active-runs';
import { capabilityJobHandler } from '../src/handlers/capability-job';
import { OUTAGE_ASK_POLICIES } from './support/ask-policies';

// A finished run's report survives the loss of its job (issue 15). Real orchestrator, registry and
// wallet processes on PostgreSQL and Redis; the worker's capability job handler in this process
// with a scripted crt runner. Between the runner's completion and its report, the orchestrator is
// stopped (reports go unanswered) and the job is deleted from Redis (as a Redis restarted empty
// would); the worker keeps asking, and once the orchestrator is back the run completes once, with
// this attempt's result. The dispatcher, finding the job gone, may hand the run over again: that
// job's claim is refused (its result is recorded) and the capability does not run a second time.

const logger = createLogger({ service: 'report-survives-test', level: 'silent' });
const APEX = 'survivor.example';
const RESULT = {
  status: 'completed',
  summary: `Found 1 distinct hostnames for ${APEX} in certificate-transparency logs (crt.sh); returning 1 (limit 10).`,
  apex: APEX,
  count: 1,
  limit: 10,
  include_first_seen: false,
  observations: [{ hostname: `www.${APEX}` }],
  provider: 'crt.sh',
  live_hosts_verified: false,
  disclosure:
    'Certificate-transparency observations list hostnames that appeared in publicly logged TLS certificates. They do not prove that a host exists in DNS, is live, or is reachable, and they may include retired names.',
};

let stack: TestStack;
let bus: Bus<MessageCatalog>;
let consumer: JobProcessor;
/** Runs the runner was entered for (once per execution of the capability). */
const executions: string[] = [];
const claims: Array<{ job_id: string; answer: ClaimAnswer }> = [];
let unansweredReports = 0;
let release: () => void = () => undefined;
const gate = new Promise<void>((resolve) => {
  release = resolve;
});

beforeAll(async () => {
  stack = await startTestStack({
    services: ['registry', 'wallet', 'orchestrator'],
    // ms: a short sweep, so the dispatcher notices the lost job as soon as it is back.
    env: { RUN_DISPATCH_INTERVAL_MS: '200' },
  });
  bus = createBus({
    catalog: messageCatalog,
    redisUrl: stack.redisUrl,
    prefix: stack.prefix,
    logger,
    encryptionKeys: stack.busEncryptionKeys,
  });
  // A short timeout per call: while the orchestrator is stopped each report fails fast and is asked again.
  const real: AttemptPort = serviceClient(bus, 'orchestrator', { timeoutMs: 2_000 });
  const port: AttemptPort = {
    async claimAttempt(request) {
      const answer = await real.claimAttempt(request);
      claims.push({ job_id: request.job_id, answer });
      return answer;
    },
    async reportRun(report) {
      try {
        return await real.reportRun(report);
      } catch (err) {
        unansweredReports += 1;
        throw err;
      }
    },
  };
  const handler = capabilityJobHandler(
    'capability.crt',
    {
      attempts: port,
      logger,
      activeRuns: new ActiveRuns(),
      ask: OUTAGE_ASK_POLICIES,
    },
    async (payload: { run_id: string }) => {
      executions.push(payload.run_id);
      await gate;
      return {
        kind: 'completed',
        result: RESULT,
        metrics: { provider: 'crt.sh', provider_ms: 1, cache: 'off' },
      };
    },
  );
  // One at a time: a second hand-over of the run waits until this worker has reported the first.
  consumer = processJobs(bus, 'capability.crt', handler, { concurrency: 1 });
  await consumer.waitUntilReady();
  await waitForReady(bus.redis, 10_000);
  await bus.redis.zadd(runtimeWorkersKey(stack.prefix, 'node'), Date.now() + 600_000, 'report-survives');
}, 120_000);

afterAll(async () => {
  release();
  await consumer?.close();
  await bus?.close();
  await stack?.close();
});

it('a result held while the orchestrator is down and the job is lost in Redis is recorded once', async () => {
  const client = serviceClient(bus, 'orchestrator', { timeoutMs: 15_000 });
  const { clientId } = await stack.createApiKey({ scopes: ['capabilities:run'] });
  const { run } = await client.startCrtRun({
    client_id: clientId,
    client_type: 'api',
    input: { apex: APEX, limit: 10 },
  });
  const runId = run.run_id;
  await pollUntil(() => (executions.includes(runId) ? true : undefined), { what: 'the runner to start' });
  const first = claims[0];
  expect(first?.answer).toEqual({ go: true, attempt: 1 });
  const jobId = first?.job_id ?? '';

  // The orchestrator goes away, and Redis forgets the job (its hash, lock and place in the queue).
  expect(await stack.stop('orchestrator')).toBe(0);
  const queueKey = `${stack.prefix}:${jobQueueName('capability.crt')}`;
  await bus.redis.del(`${queueKey}:${jobId}`, `${queueKey}:${jobId}:lock`);
  await bus.redis.lrem(`${queueKey}:active`, 0, jobId);

  release();
  await pollUntil(() => (unansweredReports >= 2 ? true : undefined), {
    what: 'reports asked again while nobody answers',
    timeoutMs: 30_000,
  });
  await stack.start('orchestrator');

  const done = await pollUntil(
    async () => {
      const current = await client.getRun({ client_id: clientId, run_id: runId });
      return current.status === 'completed' ? current : undefined;
    },
    { what: 'the run to complete', timeoutMs: 60_000 },
  );
  expect(done).toMatchObject({ status: 'completed', attempts: 1, result: RESULT });

  // Whatever the dispatcher handed over meanwhile has been taken and refused by now.
  await pollUntil(
    async () => {
      const waiting = await bus.redis.llen(`${queueKey}:wait`);
      const active = await bus.redis.llen(`${queueKey}:active`);
      const delayed = await bus.redis.zcard(`${queueKey}:delayed`);
      return waiting + active + delayed === 0 ? true : undefined;
    },
    { what: 'no job of the run left waiting, active or delayed', timeoutMs: 30_000 },
  );
  expect(executions.filter((id) => id === runId)).toHaveLength(1);
  for (const later of claims.slice(1)) expect(later.answer).toEqual({ go: false, reason: 'final' });
}, 180_000);
