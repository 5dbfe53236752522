// Worker process: stateless (no database). Consumes job queues (`jobs.system.echo`, and
// `jobs.capability.crt` when it serves the `node` runtime), announces the runtimes it serves with
// heartbeat keys in Redis, serves /healthz, /readyz, /metrics.
// Wiring only: env → logger → bus → heartbeat → job consumers → health server → runService.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { createBus } from '@svc/bus';
import { createLogger } from '@svc/log';
import { redisCheck, runService, startHealthServer } from '@svc/service-kit';
import { createCrtRunner } from './domain/crt/crt-runner';
import { startHeartbeat } from './domain/heartbeat';
import { loadWorkerEnv } from './env';
import { startJobConsumers } from './handlers/jobs';

const SERVICE = 'worker';
/** ms: of the shutdown budget, what is kept for the heartbeat, the bus and the HTTP server after the jobs. */
const SHUTDOWN_RESERVE_MS = 3_000;

const env = loadWorkerEnv();
// Unique per process, stable for its life; `:` would split the heartbeat key, so it is replaced.
const workerId = `${hostname().replaceAll(':', '-')}-${process.pid}-${randomBytes(3).toString('hex')}`;
const logger = createLogger({ service: SERVICE, level: env.LOG_LEVEL }).child({ worker_id: workerId });

runService({
  name: SERVICE,
  logger,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  // Closed in this order: health server, heartbeat (keys deleted: no longer announced), job
  // consumers (running jobs finish or are dropped after the drain budget: worker.close() has no
  // timeout of its own, NOTES "BullMQ and Redis"), then the bus. The heartbeat starts before the
  // consumers: its first beat waits for the bus's producer connection, which the crt cache and the
  // run reports use, so the first job does not find it still connecting.
  start: async () => {
    const bus = createBus({ redisUrl: env.REDIS_URL, prefix: env.BUS_PREFIX, logger });
    const heartbeat = await startHeartbeat({
      bus,
      workerId,
      runtimes: env.WORKER_RUNTIMES,
      hostname: hostname(),
      pid: process.pid,
      concurrency: env.WORKER_CONCURRENCY,
    });
    const runCrt = createCrtRunner({
      crtShUrl: env.CRT_SH_URL,
      certSpotterUrl: env.CERTSPOTTER_URL,
      certSpotterToken: env.CERTSPOTTER_TOKEN,
      providerTimeoutMs: env.CRT_PROVIDER_TIMEOUT_MS,
      providerAttempts: env.CRT_PROVIDER_ATTEMPTS,
      runDeadlineMs: env.CRT_RUN_DEADLINE_MS,
      providerMaxBytes: env.CRT_PROVIDER_MAX_BYTES,
      cacheTtlMs: env.CRT_CACHE_TTL_MS,
      cacheMaxBytes: env.CRT_CACHE_MAX_BYTES,
      bus,
      logger,
    });
    const consumers = startJobConsumers(bus, {
      concurrency: env.WORKER_CONCURRENCY,
      drainTimeoutMs: Math.max(1_000, env.SHUTDOWN_TIMEOUT_MS - SHUTDOWN_RESERVE_MS),
      runtimes: env.WORKER_RUNTIMES,
      runCrt,
      logger,
    });
    const health = await startHealthServer({
      service: SERVICE,
      port: env.HEALTH_PORT,
      checks: { redis: redisCheck(bus.redis) },
      logger,
    });
    logger.info({ runtimes: env.WORKER_RUNTIMES, concurrency: env.WORKER_CONCURRENCY }, 'worker announced');
    return [
      { name: 'bus', close: () => bus.close() },
      { name: 'job consumers', close: () => Promise.all(consumers.map((c) => c.close())).then(() => {}) },
      { name: 'heartbeat', close: () => heartbeat.close() },
      { name: 'health server', close: () => health.close() },
    ];
  },
});
