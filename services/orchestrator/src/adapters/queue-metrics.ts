import { randomBytes } from 'node:crypto';
import { type Bus, jobQueueName } from '@svc/bus';
import {
  CAPABILITIES,
  capabilityJobName,
  type MessageCatalog,
  runnableCapabilities,
} from '@svc/capabilities';
import { Gauge, type Registry } from '@svc/service-kit';

/**
 * Every capability queue's depth and the age of its oldest waiting job, on /metrics (issue 25 item
 * 6): what an autoscaler of a worker pool reads. `svc_queue_waiting_jobs{queue}` (the BullMQ queue,
 * `jobs.capability.<slug>`) counts the jobs no
 * worker has taken (BullMQ's `wait` list); `svc_queue_oldest_waiting_seconds{queue}` is how long the
 * next one to be taken has waited (0 when none waits).
 *
 * Once per queue, not once per orchestrator: the replica that holds a lease in Redis
 * (`<prefix>:queue-metrics:exporter`, renewed at each scrape, LEASE_MS) exports them; the others
 * export no series of these two metrics, so a sum over replicas counts every job once. A replica that
 * dies is replaced by the next one scraped after its lease lapses.
 *
 * Read straight from BullMQ's keys, two pipelined round trips a scrape: LLEN and LINDEX -1 (BullMQ
 * pushes on the left and takes from the right, so the last element is the oldest) of each `wait`
 * list, then that job's `timestamp` (written when it was added).
 */

/** ms a lease lasts: three scrape intervals of a usual 5 s scrape, so one missed scrape keeps it. */
export const QUEUE_METRICS_LEASE_MS = 15_000;

/** Renews the lease if this instance holds it, or takes it if it has lapsed; whether it holds it now. */
const LEASE_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

/** One queue's figures at a scrape. */
interface QueueFigures {
  queue: string;
  waiting: number;
  oldestSeconds: number;
}

export interface QueueMetricsOptions {
  /** Unique per process (default random). */
  instanceId?: string;
  leaseMs?: number;
  /** Clock (tests); default Date.now. */
  now?: () => number;
}

export function registerQueueMetrics(
  bus: Bus<MessageCatalog>,
  registry: Registry,
  options: QueueMetricsOptions = {},
): void {
  const instanceId = options.instanceId ?? randomBytes(8).toString('hex');
  const leaseMs = options.leaseMs ?? QUEUE_METRICS_LEASE_MS;
  const now = options.now ?? Date.now;
  const queues = runnableCapabilities(CAPABILITIES).flatMap((capability) => {
    const job = capabilityJobName(capability.slug);
    return job === undefined ? [] : [jobQueueName(job)];
  });
  const leaseKey = `${bus.prefix}:queue-metrics:exporter`;

  /** Depth and oldest age per queue, or undefined when another replica exports them (or Redis is away). */
  const read = async (): Promise<
    Array<{ queue: string; waiting: number; oldestSeconds: number }> | undefined
  > => {
    const redis = bus.redis;
    if (redis.status !== 'ready') return undefined;
    const held = await redis.eval(LEASE_SCRIPT, 1, leaseKey, instanceId, String(leaseMs));
    if (held !== 1) return undefined;
    const heads = redis.pipeline();
    for (const queue of queues) {
      heads.llen(`${bus.prefix}:${queue}:wait`);
      heads.lindex(`${bus.prefix}:${queue}:wait`, -1);
    }
    const answers = (await heads.exec()) ?? [];
    const stamps = redis.pipeline();
    const found = queues.map((queue, i) => {
      const waiting = Number(answers[2 * i]?.[1] ?? 0);
      const oldest = answers[2 * i + 1]?.[1];
      if (typeof oldest === 'string') stamps.hget(`${bus.prefix}:${queue}:${oldest}`, 'timestamp');
      return { queue, waiting, hasOldest: typeof oldest === 'string' };
    });
    const stampAnswers = (await stamps.exec()) ?? [];
    let next = 0;
    const at = now();
    return found.map(({ queue, waiting, hasOldest }) => {
      const stamp = hasOldest ? Number(stampAnswers[next++]?.[1]) : Number.NaN;
      const oldestSeconds = Number.isFinite(stamp) ? Math.max(0, (at - stamp) / 1_000) : 0;
      return { queue, waiting, oldestSeconds };
    });
  };

  // One read per scrape, shared by both gauges (prom-client collects each gauge in turn).
  let pending: ReturnType<typeof read> | undefined;
  const shared = () => {
    pending ??= read()
      .catch(() => undefined)
      .finally(() => {
        setImmediate(() => {
          pending = undefined;
        });
      });
    return pending;
  };

  const gauge = (name: string, help: string, value: (figure: QueueFigures) => number) => {
    const metric: Gauge<'queue'> = new Gauge({
      name,
      help,
      labelNames: ['queue'] as const,
      registers: [registry],
      async collect() {
        const figures = await shared();
        metric.reset();
        for (const figure of figures ?? []) metric.set({ queue: figure.queue }, value(figure));
      },
    });
  };
  gauge(
    'svc_queue_waiting_jobs',
    'Jobs waiting in a capability queue for a worker (one exporting orchestrator per platform).',
    (figure) => figure.waiting,
  );
  gauge(
    'svc_queue_oldest_waiting_seconds',
    'How long the oldest job waiting in a capability queue has waited, s (0: none waits).',
    (figure) => figure.oldestSeconds,
  );
}
