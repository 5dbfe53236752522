// Worker process: stateless (no database). Consumes job queues (`jobs.system.echo`; the
// `jobs.capability.*` queues of the runtimes it serves: crt, pii-redact, pdf-extract-text,
// image-thumbnail and csv-profile on `node`, html-to-pdf on `browser`), reads input files from and
// writes artifacts to object storage, routes cancellation requests to the runs it holds, announces
// its runtimes with heartbeat keys in Redis, serves /healthz, /readyz, /metrics.
// Wiring only: env → logger → store → bus → heartbeat → cancel subscription → job consumers →
// health server.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { createBus, servicePresence } from '@svc/bus';
import { createLogger } from '@svc/log';
import { createMetricsRegistry, redisCheck, runService, startHealthServer } from '@svc/service-kit';
import { objectStoreFromEnv } from '@svc/storage';
import { ActiveRuns } from './domain/capability/active-runs';
import { createCrtRunner } from './domain/crt/crt-runner';
import { startHeartbeat } from './domain/heartbeat';
import { BrowserHost } from './domain/html-to-pdf/browser-host';
import { createPdfRenderer } from './domain/html-to-pdf/render-pdf';
import { loadWorkerEnv } from './env';
import { subscribeCancelRequests } from './handlers/cancel-requests';
import { startJobConsumers } from './handlers/jobs';
import { createRunMetrics } from './metrics';

const SERVICE = 'worker';
/** ms: of the shutdown budget, what is kept for the heartbeat, the bus and the HTTP server after the jobs. */
const SHUTDOWN_RESERVE_MS = 3_000;
/** ms: how long start-up waits for the cancel-request subscription. */
const SUBSCRIBE_WAIT_MS = 5_000;

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
  // timeout of its own, NOTES "BullMQ and Redis"), the cancel subscription (a cancel still reaches a
  // job that is draining), chromium (no render is left to use it), then the bus. The heartbeat
  // starts before the consumers: its first beat waits for the bus's producer connection, which the
  // crt cache and the run reports use, so the first job does not find it still connecting.
  start: async () => {
    // No I/O yet: /readyz checks it (the fs directory is writable, the S3 bucket exists).
    const store = objectStoreFromEnv(env);
    const bus = createBus({
      redisUrl: env.REDIS_URL,
      prefix: env.BUS_PREFIX,
      logger,
      encryptionKeys: env.BUS_ENCRYPTION_KEY,
    });
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
    // Launched on the first html-to-pdf job, only by workers that serve the browser runtime.
    const browser = env.WORKER_RUNTIMES.includes('browser')
      ? new BrowserHost({
          executablePath: env.CHROMIUM_PATH,
          launchTimeoutMs: env.HTML_TO_PDF_TIMEOUT_MS,
          logger,
        })
      : undefined;
    const renderPdf = browser
      ? createPdfRenderer({ browser, timeoutMs: env.HTML_TO_PDF_TIMEOUT_MS, logger })
      : undefined;
    const activeRuns = new ActiveRuns();
    const cancelRequests = subscribeCancelRequests(bus, activeRuns, logger);
    // Subscribed before the first job starts, unless Redis is down: then start anyway (the
    // subscription completes on reconnect; jobs cannot start without Redis either).
    await Promise.race([
      cancelRequests.waitUntilReady(),
      delay(SUBSCRIBE_WAIT_MS, undefined, { ref: false }),
    ]);
    // Made before the consumers (their attempts are counted), served by the health server below.
    const registry = createMetricsRegistry(SERVICE);
    const consumers = startJobConsumers(bus, {
      concurrency: env.WORKER_CONCURRENCY,
      drainTimeoutMs: Math.max(1_000, env.SHUTDOWN_TIMEOUT_MS - SHUTDOWN_RESERVE_MS),
      stall: {
        lockDurationMs: env.WORKER_LOCK_DURATION_MS,
        stalledIntervalMs: env.WORKER_STALLED_INTERVAL_MS,
        maxStalledCount: env.WORKER_MAX_STALLED_COUNT,
      },
      runtimes: env.WORKER_RUNTIMES,
      activeRuns,
      runCrt,
      renderPdf,
      store,
      pdf: { stepTimeoutMs: env.PDF_EXTRACT_STEP_TIMEOUT_MS, maxHeapMb: env.PDF_EXTRACT_THREAD_HEAP_MB },
      observe: createRunMetrics(registry),
      logger,
    });
    const health = await startHealthServer({
      service: SERVICE,
      port: env.HEALTH_PORT,
      checks: { redis: redisCheck(bus.redis), storage: () => store.check() },
      registry,
      presence: servicePresence(bus, SERVICE),
      logger,
    });
    logger.info({ runtimes: env.WORKER_RUNTIMES, concurrency: env.WORKER_CONCURRENCY }, 'worker announced');
    return [
      { name: 'bus', close: () => bus.close() },
      ...(browser ? [{ name: 'chromium', close: () => browser.close() }] : []),
      { name: 'cancel subscription', close: () => cancelRequests.close() },
      { name: 'job consumers', close: () => Promise.all(consumers.map((c) => c.close())).then(() => {}) },
      { name: 'heartbeat', close: () => heartbeat.close() },
      { name: 'health server', close: () => health.close() },
    ];
  },
});
