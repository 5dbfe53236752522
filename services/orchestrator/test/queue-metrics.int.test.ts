import { randomUUID } from 'node:crypto';
import { enqueueJob } from '@svc/bus';
import { createMetricsRegistry, type Registry } from '@svc/service-kit';
import { createTestBus, pollUntil, type TestBus } from '@svc/testkit';
import { registerQueueMetrics } from '../src/adapters/queue-metrics';

/**
 * The capability queues' depth and oldest wait on /metrics (issue 25 item 6), read from BullMQ's
 * keys in real Redis, and exported by one orchestrator replica at a time (a lease), so that a sum
 * over replicas counts each waiting job once.
 */

let testBus: TestBus;

beforeAll(() => {
  testBus = createTestBus('qmetrics');
});

afterAll(async () => {
  await testBus?.close();
});

/** The value of `metric{queue="…"}` in a registry's exposition; undefined when it has no such series. */
async function sample(registry: Registry, metric: string, queue: string): Promise<number | undefined> {
  const text = await registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${metric}{`) && l.includes(`queue="${queue}"`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

it('exports each queue once: depth and the oldest job age from the lease holder, nothing from the others', async () => {
  const addedAt = Date.now();
  for (let i = 0; i < 3; i += 1) {
    await enqueueJob(
      testBus.bus,
      'capability.pii-redact',
      { run_id: randomUUID(), input: { text: `x${i}` } },
      { jobId: `run-${randomUUID()}-1` },
    );
  }
  // Five seconds later on the exporters' clocks: the oldest job has waited about that long.
  const later = () => Date.now() + 5_000;
  const first = createMetricsRegistry('orchestrator');
  const second = createMetricsRegistry('orchestrator');
  registerQueueMetrics(testBus.bus, first, { instanceId: 'first', leaseMs: 400, now: later });
  registerQueueMetrics(testBus.bus, second, { instanceId: 'second', leaseMs: 400, now: later });
  await pollUntil(() => testBus.bus.redis.status === 'ready');

  expect(await sample(first, 'svc_queue_waiting_jobs', 'jobs.capability.pii-redact')).toBe(3);
  const age = await sample(first, 'svc_queue_oldest_waiting_seconds', 'jobs.capability.pii-redact');
  expect(age).toBeGreaterThanOrEqual(5);
  expect(age).toBeLessThan(5 + (Date.now() - addedAt) / 1_000 + 1);
  // An empty queue: depth 0, age 0.
  expect(await sample(first, 'svc_queue_waiting_jobs', 'jobs.capability.crt')).toBe(0);
  expect(await sample(first, 'svc_queue_oldest_waiting_seconds', 'jobs.capability.crt')).toBe(0);
  // The other replica exports no series while the first holds the lease.
  expect(await sample(second, 'svc_queue_waiting_jobs', 'jobs.capability.pii-redact')).toBeUndefined();

  // The first stops being scraped (it died): once its lease lapses, the second takes over.
  await pollUntil(
    async () => (await sample(second, 'svc_queue_waiting_jobs', 'jobs.capability.pii-redact')) === 3,
    { timeoutMs: 5_000, intervalMs: 100 },
  );
  expect(await sample(first, 'svc_queue_waiting_jobs', 'jobs.capability.pii-redact')).toBeUndefined();
});
