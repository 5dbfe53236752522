import { type Bus, busInternals } from './bus';
import type { BusCatalog, JobDefinition, JobNameOf } from './catalog';
import type { Closable } from './closable';
import { type JobHandler, processJobs, type ScheduleRepeatingJobOptions, scheduleRepeatingJob } from './jobs';
import { jobQueueName } from './names';

/**
 * ms: how often a kept schedule checks that Redis still has it. One ZSCORE per check; it is what
 * notices a Redis emptied without a reconnection (FLUSHALL, a failover to an empty replica).
 */
export const SCHEDULE_CHECK_INTERVAL_MS = 5_000;

export interface KeepJobScheduledOptions<D extends JobDefinition> extends ScheduleRepeatingJobOptions<D> {
  /** ms between two checks that the schedule still exists; default SCHEDULE_CHECK_INTERVAL_MS. */
  checkEveryMs?: number;
}

/** A schedule kept in Redis by this process until closed (closing leaves it in Redis). */
export interface KeptSchedule extends Closable {
  /** Checks now (and saves the schedule if Redis lost it); resolves true when it is in Redis. */
  check(): Promise<boolean>;
}

/**
 * `scheduleRepeatingJob`, kept: a BullMQ job scheduler lives only in Redis, so a Redis restarted
 * without its data (no persistence, or the last second lost) forgets it and its jobs stop for good
 * (issue 15: the uploads clean-up stopped until a restart). This saves the schedule now, then
 * checks it is still there whenever the bus's connection is (re)established and every
 * `checkEveryMs`, and saves it again when it is missing. Saving is an upsert of one scheduler id
 * (the job name): idempotent, every replica may do it, and an existing schedule keeps its next run.
 * Failures (Redis down) are logged once per outage and retried at the next check; resolves after
 * the first attempt, saved or not, so a service starts without Redis.
 */
export async function keepJobScheduled<C extends BusCatalog, N extends JobNameOf<C>>(
  bus: Bus<C>,
  name: N,
  everyMs: number,
  options: KeepJobScheduledOptions<C['jobs'][N]> = {},
): Promise<KeptSchedule> {
  const { checkEveryMs = SCHEDULE_CHECK_INTERVAL_MS, ...scheduleOptions } = options;
  const internals = busInternals(bus);
  const logger = internals.logger.child({ job: name });
  const redis = bus.redis;
  let saved = false;
  let failing = false;
  let closed = false;
  let inFlight: Promise<boolean> | undefined;

  /** True when Redis has the scheduler (one ZSCORE on the queue's schedulers set). */
  const exists = async (): Promise<boolean> => {
    const queue = internals.queue(jobQueueName(name));
    return (await redis.zscore(queue.toKey('repeat'), name)) !== null;
  };

  const attempt = async (): Promise<boolean> => {
    try {
      // Saved once at start whatever Redis holds: the interval or the payload may have changed.
      if (saved && (await exists())) return true;
      if (closed) return false;
      await scheduleRepeatingJob(bus, name, everyMs, scheduleOptions);
      if (saved) logger.info('job schedule was missing from Redis (emptied?): saved again');
      if (failing) logger.info('job schedule saved again after a Redis outage');
      saved = true;
      failing = false;
      return true;
    } catch (err) {
      if (!failing && !closed) {
        logger.warn(
          { err: err instanceof Error ? err.message : String(err), retry_ms: checkEveryMs },
          'job schedule not saved; retrying',
        );
      }
      failing = true;
      return false;
    }
  };
  // One check at a time: a reconnection during a periodic check joins it.
  const check = (): Promise<boolean> => {
    inFlight ??= attempt().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  const onReady = (): void => void check();
  redis.on('ready', onReady);
  const timer = setInterval(() => void check(), checkEveryMs);
  // The schedule alone must not keep the process alive.
  timer.unref();
  await check();

  return {
    check,
    close: async () => {
      closed = true;
      clearInterval(timer);
      redis.off('ready', onReady);
      await inFlight;
    },
  };
}

/**
 * A periodic pass of one service: its job `name` processed here (processJobs, one at a time) and
 * kept scheduled every `everyMs` (keepJobScheduled: one job per period for all replicas). Closing
 * stops keeping the schedule, then the processor.
 */
export async function runScheduledJob<C extends BusCatalog, N extends JobNameOf<C>>(
  bus: Bus<C>,
  name: N,
  everyMs: number,
  handler: NoInfer<JobHandler<C['jobs'][N]>>,
): Promise<Closable> {
  const processor = processJobs(bus, name, handler);
  const schedule = await keepJobScheduled(bus, name, everyMs);
  return {
    close: async () => {
      await schedule.close();
      await processor.close();
    },
  };
}
