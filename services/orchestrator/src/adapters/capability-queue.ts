import { type Bus, enqueueJob, jobQueueName } from '@svc/bus';
import type { MessageCatalog } from '@svc/capabilities';
import { heldRunsKey } from '@svc/contracts';
import { ServiceUnavailableError } from '@svc/errors';
import type { EnqueueCapabilityJob } from '../domain/dispatch';
import type { HandOverProbe, JobRef } from '../domain/handover-probe';
import { type RedisHandle, readyRedis } from './redis-ports';

/** The domain's queue port: `capability.<slug>` jobs under the run's current job id (`job_id`). */
export function capabilityJobEnqueuer(bus: Bus<MessageCatalog>): EnqueueCapabilityJob {
  return async (job) => {
    await enqueueJob(bus, job.name, job.payload, { jobId: job.jobId });
  };
}

/**
 * What the dispatcher asks Redis about hand-overs, in one round trip each (jobsAlive and runsHeld
 * are asked in the same tick, so their commands share one):
 * - `jobsAlive`: one pipelined `HMGET <job key> timestamp finishedOn` per job. BullMQ writes
 *   `timestamp` when it stores a job and `finishedOn` only when the job completed or failed for good
 *   (moveToFinished; a retry goes through the delayed set without it). So a job is alive when its
 *   hash exists and has no `finishedOn`: waiting, delayed, prioritized or active.
 * - `runsHeld`: one `ZMSCORE <heldRunsKey> <run ids…>`; a run is held while its score (when the
 *   worker's last announcement lapses, ms since the epoch) is ahead of this process's clock.
 * - `serverRunId`: `run_id` of INFO server, which Redis draws anew at every start: a changed value
 *   means Redis restarted and may have lost every job.
 * Both throw 503 when Redis does not answer (the sweep then changes nothing).
 */
export function handOverProbe(bus: RedisHandle): HandOverProbe {
  return {
    async jobsAlive(jobs: readonly JobRef[]) {
      if (jobs.length === 0) return [];
      const redis = await readyRedis(bus);
      const pipeline = redis.pipeline();
      for (const job of jobs) {
        pipeline.hmget(`${bus.prefix}:${jobQueueName(job.name)}:${job.jobId}`, 'timestamp', 'finishedOn');
      }
      const answers = await pipeline.exec().catch(() => null);
      if (answers === null || answers.length !== jobs.length) throw unavailable();
      return answers.map(([err, fields]) => {
        if (err !== null || !Array.isArray(fields)) throw unavailable();
        const [stored, finishedOn] = fields as Array<string | null>;
        return stored !== null && stored !== undefined && (finishedOn === null || finishedOn === undefined);
      });
    },
    async runsHeld(runIds: readonly string[]) {
      if (runIds.length === 0) return [];
      const redis = await readyRedis(bus);
      const scores = await redis.zmscore(heldRunsKey(bus.prefix), ...runIds).catch(() => {
        throw unavailable();
      });
      if (scores.length !== runIds.length) throw unavailable();
      const now = Date.now();
      return scores.map((score) => score !== null && Number(score) > now);
    },
    async serverRunId() {
      const redis = await readyRedis(bus);
      const info = await redis.info('server').catch(() => {
        throw unavailable();
      });
      const runId = /^run_id:(\S+)/m.exec(info)?.[1];
      if (runId === undefined) throw unavailable();
      return runId;
    },
  };
}

function unavailable(): ServiceUnavailableError {
  return new ServiceUnavailableError('message bus is unavailable');
}
