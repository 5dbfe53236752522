import { formatZodError, ServiceUnavailableError } from '@svc/errors';
import type { Logger } from '@svc/log';
import type { Job, Worker } from 'bullmq';
import { bullmq } from './bullmq';
import { type Bus, busInternals, CONSUMER_RETRY_DELAY_MS, type ConsumerHandle } from './bus';
import {
  type BusCatalog,
  catalogEntry,
  type JobDefinition,
  type JobNameOf,
  type JobPayloadInputOf,
  type JobPayloadOf,
  type JobResultInputOf,
} from './catalog';
import { jobQueueName } from './names';
import { safeParseWith } from './schema';
import { SealError, type SealedValue, sealingContext } from './sealing';

export interface EnqueueOptions {
  /**
   * Domain id that deduplicates the job (e.g. `run-<runId>`): adding a job whose id is still
   * retained (waiting, active, or kept after finishing) adds nothing. Must not contain `:`.
   */
  jobId?: string;
}

/** ms: how long enqueueing waits for the producer's first connection before failing with 503. */
const ENQUEUE_CONNECT_WAIT_MS = 2_000;

/**
 * Validates and adds a job to `jobs.<name>` with the catalog's options. Returns the job id (the
 * existing one when deduplicated). Throws TypeError for an invalid payload or job id (programming
 * errors) and ServiceUnavailableError when Redis is down.
 */
export async function enqueueJob<C extends BusCatalog, N extends JobNameOf<C>>(
  bus: Bus<C>,
  name: N,
  payload: JobPayloadInputOf<NoInfer<C>['jobs'][N]>,
  options: EnqueueOptions = {},
): Promise<{ jobId: string }> {
  const definition = jobDefinition(bus, name);
  const parsed = definition.payload.safeParse(payload);
  if (!parsed.success) throw new TypeError(`invalid ${name} job: ${formatZodError(parsed.error)}`);
  if (options.jobId?.includes(':')) throw new TypeError(`job id must not contain ':' (${options.jobId})`);
  const internals = busInternals(bus);
  const data = sealJobPayload(bus, name, parsed.data);
  await internals.readyProducer(ENQUEUE_CONNECT_WAIT_MS);
  try {
    const job = await internals.queue(jobQueueName(name)).add(name, data, {
      ...definition.options,
      ...(options.jobId ? { jobId: options.jobId } : {}),
    });
    return { jobId: job.id ?? '' };
  } catch (err) {
    internals.logger.warn(
      { job: name, err: err instanceof Error ? err.message : String(err) },
      'job not enqueued',
    );
    throw new ServiceUnavailableError('message bus is unavailable');
  }
}

/**
 * Removes a job that is still waiting or delayed (e.g. a cancelled run's). Returns true when it was
 * removed; false when there was none or it is active (a locked job cannot be removed: its worker
 * finishes or skips it). Throws ServiceUnavailableError when Redis is down.
 */
export async function removeWaitingJob<C extends BusCatalog>(
  bus: Bus<C>,
  name: JobNameOf<C>,
  jobId: string,
): Promise<boolean> {
  const internals = busInternals(bus);
  await internals.readyProducer(ENQUEUE_CONNECT_WAIT_MS);
  try {
    const job = await internals.queue(jobQueueName(name)).getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    if (state !== 'waiting' && state !== 'delayed' && state !== 'prioritized') return false;
    await job.remove();
    return true;
  } catch (err) {
    if (err instanceof Error && /locked|active/i.test(err.message)) return false;
    internals.logger.warn(
      { job: name, jobId, err: err instanceof Error ? err.message : String(err) },
      'job not removed',
    );
    throw new ServiceUnavailableError('message bus is unavailable');
  }
}

export interface ScheduleRepeatingJobOptions<D extends JobDefinition> {
  /** Payload of every scheduled job (validated like enqueueJob's); default `{}`. */
  payload?: JobPayloadInputOf<D>;
}

/**
 * Makes BullMQ add a `jobs.<name>` job every `everyMs` (a job scheduler, `upsertJobScheduler`), with
 * the catalog's options. The scheduler's id is the job name, so every replica that calls this at
 * start-up updates the same one schedule (one job per interval in all, whoever processes it) instead
 * of adding its own. It lives in Redis: closing the process does not remove it. Throws TypeError for
 * an invalid payload or interval and ServiceUnavailableError when Redis is down.
 */
export async function scheduleRepeatingJob<C extends BusCatalog, N extends JobNameOf<C>>(
  bus: Bus<C>,
  name: N,
  everyMs: number,
  options: ScheduleRepeatingJobOptions<C['jobs'][N]> = {},
): Promise<{ schedulerId: string }> {
  if (!Number.isSafeInteger(everyMs) || everyMs < 1) {
    throw new TypeError(`repeat interval of ${name} must be a positive integer of ms, got ${everyMs}`);
  }
  const definition = jobDefinition(bus, name);
  const parsed = definition.payload.safeParse(options.payload ?? {});
  if (!parsed.success) throw new TypeError(`invalid ${name} job: ${formatZodError(parsed.error)}`);
  const internals = busInternals(bus);
  // The scheduler copies this template into every job it adds: sealed once, opened per job.
  const data = sealJobPayload(bus, name, parsed.data);
  await internals.readyProducer(ENQUEUE_CONNECT_WAIT_MS);
  try {
    await internals
      .queue(jobQueueName(name))
      .upsertJobScheduler(name, { every: everyMs }, { name, data, opts: definition.options });
    return { schedulerId: name };
  } catch (err) {
    internals.logger.warn(
      { job: name, err: err instanceof Error ? err.message : String(err) },
      'job scheduler not saved',
    );
    throw new ServiceUnavailableError('message bus is unavailable');
  }
}

/** What a job handler is told besides its payload. */
export interface JobContext {
  jobId: string;
  /** 1 on the first try; retries (transient faults) count up to the catalog's `attempts`. */
  attempt: number;
  /**
   * Times this job has been started, this time included (BullMQ `attemptsStarted`): like `attempt`,
   * but a job picked up again after its worker died (stalled-job recovery) counts one more too.
   */
  started: number;
  /** Aborted when the worker is closing or the job is cancelled: stop cooperatively. */
  signal: AbortSignal;
  /**
   * Reports progress on the BullMQ job (`job.progress`: what Bull Board and `getJob` show); a number
   * or a small object of counts, never client data (it is not sealed).
   */
  progress(value: number | Record<string, number>): Promise<void>;
}

/** Handles the jobs of one definition (e.g. `JobHandler<JobCatalog['wallet.settle']>`). */
export type JobHandler<D extends JobDefinition> = (
  payload: JobPayloadOf<D>,
  context: JobContext,
) => Promise<JobResultInputOf<D>>;

export interface ProcessJobsOptions {
  /** Jobs handled at once by this process. Default 1: job handlers may be CPU- or memory-heavy. */
  concurrency?: number;
  /** ms: how long `close()` waits for running jobs before dropping the connections. Default 30_000. */
  closeTimeoutMs?: number;
  /** ms: a job's lock lasts this long without renewal (BullMQ default 30_000). */
  lockDurationMs?: number;
  /** ms: how often this worker looks for stalled jobs, whose worker stopped renewing their lock (default 30_000). */
  stalledIntervalMs?: number;
  /** Stalls a job survives before it fails (BullMQ default 1). */
  maxStalledCount?: number;
}

export type JobProcessor = ConsumerHandle;

/**
 * Consumes `jobs.<name>` on connections of its own. A payload that fails its schema throws
 * UnrecoverableError (retrying cannot fix it; the job is kept as failed for inspection); any other
 * error from the handler is retried per the catalog's attempts/backoff, so handlers must be
 * idempotent (delivery is at-least-once).
 */
export function processJobs<C extends BusCatalog, N extends JobNameOf<C>>(
  bus: Bus<C>,
  name: N,
  // NoInfer: the catalog is inferred from `bus` alone, so an inline handler's literals keep their types.
  handler: NoInfer<JobHandler<C['jobs'][N]>>,
  options: ProcessJobsOptions = {},
): JobProcessor {
  const internals = busInternals(bus);
  const logger = internals.logger.child({ job: name });
  const definition = jobDefinition(bus, name);
  const closeTimeoutMs = options.closeTimeoutMs ?? 30_000;

  const processJob = async (job: Job, _token?: string, signal?: AbortSignal) => {
    let data: unknown;
    try {
      data = openJobData(bus, name, job.data);
    } catch (err) {
      // Not retriable: another key or a tampered job opens no better on the next attempt.
      const message = `${name} job ${job.id ?? ''} does not open: ${err instanceof Error ? err.message : String(err)}`;
      logger.error({ jobId: job.id }, message);
      throw new (bullmq().UnrecoverableError)(message);
    }
    const payload = safeParseWith<C['jobs'][N]['payload']>(definition.payload, data);
    if (!payload.success) {
      const message = `invalid ${name} payload: ${formatZodError(payload.error)}`;
      logger.error({ jobId: job.id }, message);
      throw new (bullmq().UnrecoverableError)(message);
    }
    const context: JobContext = {
      jobId: job.id ?? '',
      attempt: job.attemptsMade + 1,
      started: Math.max(1, job.attemptsStarted),
      signal: signal ?? new AbortController().signal,
      progress: (value) => job.updateProgress(value),
    };
    const result = safeParseWith<C['jobs'][N]['result']>(
      definition.result,
      await handler(payload.data, context),
    );
    if (!result.success)
      throw new (bullmq().UnrecoverableError)(`invalid ${name} result: ${formatZodError(result.error)}`);
    return result.data;
  };

  const worker = new (bullmq().Worker)(jobQueueName(name), processJob, {
    connection: internals.blockingConnection(),
    prefix: internals.prefix,
    concurrency: options.concurrency ?? 1,
    name: `${name}:${process.pid}`,
    runRetryDelay: CONSUMER_RETRY_DELAY_MS,
    ...(options.lockDurationMs === undefined ? {} : { lockDuration: options.lockDurationMs }),
    ...(options.stalledIntervalMs === undefined ? {} : { stalledInterval: options.stalledIntervalMs }),
    ...(options.maxStalledCount === undefined ? {} : { maxStalledCount: options.maxStalledCount }),
  });
  worker.on('failed', (job, err) => {
    logger.warn({ jobId: job?.id, attempt: job?.attemptsMade, err: err.message }, 'job failed');
  });
  if (dropsDataWhenFinished(definition)) dropDataOfFinishedJobs(worker, logger);

  return internals.ownWorker(worker, `job worker ${name}`, closeTimeoutMs, logger);
}

/**
 * The catalog's definition of `name`. Throws TypeError for a name the bus's catalog lacks: the types
 * rule that out, so it is a programming error (e.g. a catalog built from another version).
 */
function jobDefinition<C extends BusCatalog, N extends JobNameOf<C>>(bus: Bus<C>, name: N): C['jobs'][N] {
  if (!Object.hasOwn(bus.catalog.jobs, name)) throw new TypeError(`unknown job ${name}`);
  return catalogEntry<C['jobs'], N>(bus.catalog.jobs, name);
}

function dropsDataWhenFinished(definition: JobDefinition): boolean {
  return definition.dropDataWhenFinished === true;
}

/** What a finished job's `data` becomes when its definition drops it (`dropDataWhenFinished`). */
const DROPPED_DATA = { dropped: 'the payload is removed once the job has finished' } as const;

/**
 * Replaces the payload of each job that finished for good (completed, or failed with no attempt
 * left: BullMQ sets `finishedOn` only then) with DROPPED_DATA, so a retained job keeps its id, state
 * and result for inspection but no client input (issue 13: "completed and failed jobs keep no
 * input"). One write per finished job; best effort: the payload is sealed either way.
 */
function dropDataOfFinishedJobs(worker: Worker, logger: Logger): void {
  const drop = (job: Job) => {
    job.updateData(DROPPED_DATA).catch((err: unknown) => {
      // Removed already (retention) or Redis is down: nothing readable was left behind.
      logger.debug({ jobId: job.id, err: err instanceof Error ? err.message : String(err) }, 'payload kept');
    });
  };
  worker.on('completed', (job) => drop(job));
  worker.on('failed', (job) => {
    if (job?.finishedOn) drop(job);
  });
}

/** A payload as `jobs.<name>` stores it: sealed for its queue and job name. */
function sealJobPayload(bus: Bus, name: string, payload: unknown): SealedValue {
  const internals = busInternals(bus);
  return internals.sealer.seal(payload, sealingContext.jobData(bus.prefix, jobQueueName(name), name));
}

/**
 * The payload a job of `jobs.<name>` carries, opened (not yet checked against its schema). Throws
 * SealError when it does not open (tampered, another key or queue, or dropped once finished). For
 * the worker and for tests and operators that inspect a job (`queue.getJob(id).data` is sealed).
 */
export function openJobData<C extends BusCatalog>(bus: Bus<C>, name: JobNameOf<C>, data: unknown): unknown {
  if (typeof data === 'object' && data !== null && 'dropped' in data) {
    throw new SealError('its payload was removed when it finished; it cannot run again');
  }
  return busInternals(bus).sealer.open(data, sealingContext.jobData(bus.prefix, jobQueueName(name), name));
}
