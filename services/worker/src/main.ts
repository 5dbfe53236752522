// Worker process: stateless (no database). Consumes job queues (`jobs.system.echo`; the
// `jobs.capability.*` queue of every runnable capability of @svc/capabilities whose runtime it
// serves, `node` or `browser`), reads input files from and writes artifacts to object storage, routes
// cancellation requests to the runs it holds, announces its runtimes with heartbeat keys in Redis,
// serves /healthz, /readyz, /metrics.
// Wiring only (defineService: env → logger → bus → store → start): heartbeat → cancel subscription
// → job consumers → health server.
import { randomBytes } from 'node:crypto';
import { availableParallelism, hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { messageCatalog } from '@svc/capabilities';
import { defineService } from '@svc/service-kit';
import { createWorkerPresence } from './adapters/worker-presence';
import { ActiveRuns } from './domain/capability/active-runs';
import { startHeartbeat } from './domain/heartbeat';
import { loadWorkerEnv } from './env';
import { subscribeCancelRequests } from './handlers/cancel-requests';
import { servedSlots, startJobConsumers } from './handlers/jobs';
import { createRunMetrics } from './metrics';

/** ms: of the shutdown budget, what is kept for the heartbeat, the bus and the HTTP server after the jobs. */
const SHUTDOWN_RESERVE_MS = 3_000;
/** ms: how long start-up waits for the cancel-request subscription. */
const SUBSCRIBE_WAIT_MS = 5_000;

// Unique per process, stable for its life; `:` would split the heartbeat key, so it is replaced.
const workerId = `${hostname().replaceAll(':', '-')}-${process.pid}-${randomBytes(3).toString('hex')}`;

defineService({
  name: 'worker',
  env: loadWorkerEnv,
  // The derived job catalog (@svc/capabilities): the platform's jobs and one per capability.
  needs: { bus: { catalog: messageCatalog }, objectStore: true },
  logBindings: { worker_id: workerId },
  // Closed in this order: health server, heartbeat (keys deleted: no longer announced), job
  // consumers (running jobs finish or are dropped after the drain budget: worker.close() has no
  // timeout of its own, NOTES "BullMQ and Redis"), the cancel subscription (a cancel still reaches a
  // job that is draining), the capability handlers (a browser a handler holds: no render is left to
  // use it), then the bus. The heartbeat starts before the consumers: its first beat waits for the
  // bus's producer connection, which the handlers' caches and the claims and reports use, so the first job does
  // not find it still connecting.
  start: async ({ env, logger, bus, store, metrics, startHealthServer }) => {
    // Before the heartbeat: every beat announces the runs this process holds (claimed, not yet
    // reported), so the dispatcher does not hand a run over again while its result is held here.
    const activeRuns = new ActiveRuns();
    const slots = {
      perCapability: env.WORKER_SLOTS,
      everyQueue: env.WORKER_CONCURRENCY,
      cores: availableParallelism(),
    };
    // What it serves: the capabilities of its runtimes, or of those the ones it is told (a pool).
    const serves = { runtimes: env.WORKER_RUNTIMES, capabilities: env.WORKER_CAPABILITIES };
    const announcedSlots = servedSlots(serves, slots);
    const heartbeat = await startHeartbeat({
      presence: createWorkerPresence(bus),
      heldRuns: () => activeRuns.ids(),
      logger,
      workerId,
      runtimes: env.WORKER_RUNTIMES,
      hostname: hostname(),
      pid: process.pid,
      slots: announcedSlots,
    });
    const cancelRequests = subscribeCancelRequests(bus, activeRuns, logger);
    // Subscribed before the first job starts, unless Redis is down: then start anyway (the
    // subscription completes on reconnect; jobs cannot start without Redis either).
    await Promise.race([
      cancelRequests.waitUntilReady(),
      delay(SUBSCRIBE_WAIT_MS, undefined, { ref: false }),
    ]);
    // Loads the handler modules of the runtimes it serves first.
    const jobs = await startJobConsumers(bus, {
      slots,
      drainTimeoutMs: Math.max(1_000, env.SHUTDOWN_TIMEOUT_MS - SHUTDOWN_RESERVE_MS),
      stall: {
        lockDurationMs: env.WORKER_LOCK_DURATION_MS,
        stalledIntervalMs: env.WORKER_STALLED_INTERVAL_MS,
        maxStalledCount: env.WORKER_MAX_STALLED_COUNT,
      },
      serves,
      // Each capability's handler gets the values of its own env fields.
      env,
      activeRuns,
      store,
      // Counted on the registry the health server serves (/metrics).
      observe: createRunMetrics(metrics),
      logger,
    });
    // Before the announcement line: a reader of it finds /healthz and /readyz answering.
    const health = await startHealthServer();
    logger.info({ runtimes: env.WORKER_RUNTIMES, slots: announcedSlots }, 'worker announced');
    return [
      // What the handlers hold (a browser, say): after the consumers, before the bus.
      { name: 'capability handlers', close: () => jobs.closeHandlers() },
      { name: 'cancel subscription', close: () => cancelRequests.close() },
      {
        name: 'job consumers',
        close: () => Promise.all(jobs.consumers.map((c) => c.close())).then(() => {}),
      },
      { name: 'heartbeat', close: () => heartbeat.close() },
      health,
    ];
  },
});
