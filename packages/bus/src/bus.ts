import { ServiceUnavailableError } from '@svc/errors';
import type { Logger } from '@svc/log';
import type { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullmq } from './bullmq';
import type { BusCatalog } from './catalog';
import { type Closable, closeWithin, once } from './closable';
import { createErrorLogLimiter, createRedis } from './redis';
import { BusSealer } from './sealing';

/** An RPC responder or job worker owned by the bus. */
export interface ConsumerHandle extends Closable {
  /** Resolves once the worker's connections are up (it takes jobs from then on). */
  waitUntilReady(): Promise<void>;
}

export interface CreateBusOptions<C extends BusCatalog = BusCatalog> {
  /**
   * The messages this bus carries (RPC methods, jobs, events): the platform's services pass
   * @svc/capabilities' `messageCatalog` (with the capability jobs) or @svc/contracts'
   * `platformCatalog`. Every typed call on the bus checks names and payloads against it.
   */
  catalog: C;
  redisUrl: string;
  /** Namespace of every key and channel (BullMQ `prefix`): tests use a unique one, prod may share a Redis. */
  prefix: string;
  logger: Logger;
  /** ms: budget for `close()` as a whole; what is still open then is disconnected. Default 5_000. */
  closeTimeoutMs?: number;
  /**
   * AES-256 keys (32 bytes each, BUS_ENCRYPTION_KEY) that seal every job payload, RPC request and
   * reply and event this bus writes to Redis (sealing.ts): the first seals, any opens (rotation).
   * Every process of one deployment must hold the key the others seal with.
   */
  encryptionKeys: readonly Uint8Array[];
}

/**
 * The handle every bus function takes, typed by its catalog. `Bus` alone (any catalog) is enough for
 * what needs no message: presence, readiness, the raw connection.
 */
export interface Bus<C extends BusCatalog = BusCatalog> extends Closable {
  readonly catalog: C;
  readonly prefix: string;
  /**
   * The shared producer connection (made on first use, `enableOfflineQueue: false`): for health
   * checks and quick commands. Never use it for blocking commands.
   */
  readonly redis: Redis;
  readonly logger: Logger;
}

/** Shutdown phases, closed in this order: consumers stop taking work before their queues go. */
type Phase = 'consumers' | 'queues' | 'connections';
const PHASES: readonly Phase[] = ['consumers', 'queues', 'connections'];

const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;

/**
 * ms: how long a BullMQ Worker (`runRetryDelay`) or QueueEvents waits after a command failed on a
 * lost connection before it tries again. BullMQ waits 15 s (Worker) and 5 s (QueueEvents): a worker
 * caught by a Redis restart then took no job for up to 15 s after Redis was back (issue 15 item 7).
 * Their commands wait for the reconnection themselves (`maxRetriesPerRequest: null`), so a short
 * pause cannot turn into a busy loop while Redis is down.
 */
export const CONSUMER_RETRY_DELAY_MS = 500;

type QueueEventsClass = typeof QueueEvents;
let promptQueueEvents: QueueEventsClass | undefined;

/**
 * QueueEvents that resumes reading within CONSUMER_RETRY_DELAY_MS of a reconnection, not 5 s. The
 * class is made on first use: it extends bullmq's, which is loaded only then (bullmq.ts).
 */
function promptQueueEventsClass(): QueueEventsClass {
  promptQueueEvents ??= class PromptQueueEvents extends bullmq().QueueEvents {
    protected override checkConnectionError<T>(
      fn: () => Promise<T>,
      delayInMs: number = CONSUMER_RETRY_DELAY_MS,
    ): Promise<T | undefined> {
      return super.checkConnectionError(fn, Math.min(delayInMs, CONSUMER_RETRY_DELAY_MS));
    }
  };
  return promptQueueEvents;
}

/** The Bus implementation; other bus modules reach its internals through `busInternals`. */
class BusImpl<C extends BusCatalog = BusCatalog> implements Bus<C> {
  readonly catalog: C;
  readonly prefix: string;
  readonly logger: Logger;
  readonly redisUrl: string;
  readonly closeTimeoutMs: number;
  readonly sealer: BusSealer;
  private producer: Redis | undefined;
  private workerTemplate: Redis | undefined;
  private readonly queues = new Map<string, Queue>();
  private readonly events = new Map<string, Promise<QueueEvents>>();
  private readonly owned = new Map<Phase, Set<Closable>>(PHASES.map((phase) => [phase, new Set()]));
  private closed = false;
  readonly close: () => Promise<void>;

  constructor(options: CreateBusOptions<C>) {
    this.catalog = options.catalog;
    this.prefix = options.prefix;
    this.logger = options.logger;
    this.redisUrl = options.redisUrl;
    this.closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    this.sealer = new BusSealer(options.encryptionKeys);
    this.close = once(() => this.closeAll());
  }

  get redis(): Redis {
    this.assertOpen();
    if (!this.producer) {
      const producer = createRedis(this.redisUrl, {
        role: 'producer',
        name: `${this.prefix}:producer`,
        logger: this.logger,
      });
      // Every request that arrives while the connection is being made waits on its events
      // (waitForReady: three listeners each): dozens at once are expected, not a leak.
      producer.setMaxListeners(0);
      this.producer = producer;
      this.own('connections', { close: () => quitOrDisconnect(producer, this.closeTimeoutMs) });
    }
    return this.producer;
  }

  /**
   * The producer connection once it can take commands. Waits only while a first connection attempt
   * is in flight (at most `maxWaitMs`); when Redis is known to be down it fails at once, so callers
   * answer 503 fast instead of hanging (STYLE "Queues and workers").
   */
  async readyProducer(maxWaitMs: number): Promise<Redis> {
    // A request that outlives shutdown gets the same 503 as one during a Redis outage.
    if (this.closed) throw new ServiceUnavailableError('message bus is closed');
    const redis = this.redis;
    if (redis.status === 'ready') return redis;
    if (redis.status === 'connecting' || redis.status === 'connect') {
      const ready = await waitForReady(redis, maxWaitMs);
      if (ready) return redis;
    }
    throw new ServiceUnavailableError('message bus is unavailable');
  }

  /**
   * A connection for BullMQ Workers and QueueEvents to duplicate (they each make their own
   * connections from it; BullMQ owns and closes those). One per bus: the template itself stays idle.
   */
  blockingConnection(): Redis {
    this.assertOpen();
    if (!this.workerTemplate) {
      const template = createRedis(this.redisUrl, {
        role: 'worker',
        name: `${this.prefix}:worker`,
        logger: this.logger,
      });
      this.workerTemplate = template;
      this.own('connections', { close: () => quitOrDisconnect(template, this.closeTimeoutMs) });
    }
    return this.workerTemplate;
  }

  /** One producer-side Queue per queue name, on the shared producer connection. */
  queue(name: string): Queue {
    this.assertOpen();
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new (bullmq().Queue)(name, {
        connection: this.redis,
        prefix: this.prefix,
        // Fail fast while Redis is down instead of waiting for "ready" (the producer has no offline
        // queue); the version check would need an INFO round trip before the first add.
        skipWaitingForReady: true,
        skipVersionCheck: true,
      });
      this.logErrors(queue, `queue ${name}`);
      // Every call waiting in `job.waitUntilFinished` listens for the queue's 'closing' event: with
      // hundreds of concurrent calls the default cap of 10 listeners would warn about a leak.
      queue.setMaxListeners(0);
      this.queues.set(name, queue);
      const created = queue;
      this.own('queues', {
        close: () => closeWithin(() => created.close(), this.closeTimeoutMs).then(() => {}),
      });
    }
    return queue;
  }

  /**
   * One QueueEvents per (process, queue), shared by every waiting call: a QueueEvents holds a
   * blocking XREAD connection, so one per call would cost a connection and a round trip each.
   *
   * It starts reading after the newest event that exists now (not at `$` when its first XREAD
   * happens to run), so a reply that lands between a caller's `add` and that first XREAD is not lost.
   */
  queueEvents(name: string): Promise<QueueEvents> {
    this.assertOpen();
    let events = this.events.get(name);
    if (!events) {
      events = this.createQueueEvents(name);
      this.events.set(name, events);
      // A failed creation (Redis down) must not be cached: the next call tries again.
      events.catch(() => this.events.delete(name));
    }
    return events;
  }

  private async createQueueEvents(name: string): Promise<QueueEvents> {
    const producer = await this.readyProducer(this.closeTimeoutMs);
    const newest = await producer.xrevrange(this.queue(name).toKey('events'), '+', '-', 'COUNT', 1);
    this.assertOpen();
    const PromptQueueEvents = promptQueueEventsClass();
    const events = new PromptQueueEvents(name, {
      connection: this.blockingConnection(),
      prefix: this.prefix,
      lastEventId: newest[0]?.[0] ?? '0-0',
    });
    this.logErrors(events, `queue events ${name}`);
    this.own('queues', {
      close: () => closeWithin(() => events.close(), this.closeTimeoutMs).then(() => {}),
    });
    return events;
  }

  /** Registers something for `close()`; returns the function that forgets it (when closed on its own). */
  own(phase: Phase, closable: Closable): () => void {
    this.assertOpen();
    const set = this.owned.get(phase);
    set?.add(closable);
    return () => set?.delete(closable);
  }

  /** Logs an emitter's `error` events, rate-limited (BullMQ re-emits every connection error). */
  logErrors(emitter: { on(event: 'error', listener: (err: Error) => void): unknown }, what: string): void {
    const limiter = createErrorLogLimiter();
    emitter.on('error', (err: Error) => {
      const verdict = limiter.record();
      if (verdict.log)
        this.logger.warn({ err: err.message, suppressed: verdict.suppressed }, `${what}: error`);
    });
  }

  /**
   * Takes a consumer (RPC responder or job worker) into the bus: its errors are logged, and its
   * close waits at most `closeTimeoutMs` for running handlers (`worker.close()` has no timeout of its
   * own) before dropping its connections. Closing twice closes once; the bus closes it if its owner
   * does not.
   */
  ownWorker(worker: Worker, what: string, closeTimeoutMs: number, logger: Logger): ConsumerHandle {
    this.logErrors(worker, what);
    const close = once(async () => {
      untrack();
      const inTime = await closeWithin(
        () => worker.close(),
        closeTimeoutMs,
        () => worker.disconnect(),
      );
      if (!inTime)
        logger.warn({ timeout_ms: closeTimeoutMs }, `${what}: handlers still running at close; dropped`);
    });
    const untrack = this.own('consumers', { close });
    return { close, waitUntilReady: async () => void (await worker.waitUntilReady()) };
  }

  assertOpen(): void {
    if (this.closed) throw new Error(`bus ${this.prefix} is closed`);
  }

  private async closeAll(): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + this.closeTimeoutMs;
    for (const phase of PHASES) {
      const items = [...(this.owned.get(phase) ?? [])];
      const budget = Math.max(1, deadline - Date.now());
      await Promise.all(items.map((item) => closeWithin(() => item.close(), budget)));
    }
    // A connection whose QUIT did not finish in time is dropped hard so the process can exit. (Not
    // on an ended one: ioredis would arm a 2 s socket-destroy timer that keeps the process alive.)
    for (const redis of [this.producer, this.workerTemplate]) {
      if (redis && redis.status !== 'end') redis.disconnect();
    }
  }
}

/** QUIT (lets in-flight replies arrive), or a hard disconnect when that takes too long or Redis is down. */
async function quitOrDisconnect(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  await closeWithin(
    () => redis.quit().then(() => {}),
    timeoutMs,
    () => redis.disconnect(),
  );
}

function waitForReady(redis: Redis, maxWaitMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onFail);
      redis.off('close', onFail);
      resolve(ready);
    };
    const onReady = () => finish(true);
    const onFail = () => finish(false);
    const timer = setTimeout(onFail, maxWaitMs);
    redis.once('ready', onReady);
    redis.once('error', onFail);
    redis.once('close', onFail);
  });
}

export function createBus<C extends BusCatalog>(options: CreateBusOptions<C>): Bus<C> {
  return new BusImpl<C>(options);
}

/** Internal: the implementation behind a Bus (only `createBus` makes them). */
export function busInternals(bus: Bus): BusImpl {
  if (!(bus instanceof BusImpl)) throw new TypeError('not a bus made by createBus');
  return bus;
}

export type { BusImpl };
