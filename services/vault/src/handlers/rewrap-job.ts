import { type Bus, enqueueJob, processJobs } from '@svc/bus';
import { type PlatformCatalog, platformCatalog } from '@svc/contracts';
import type { Logger } from '@svc/log';
import type { Closable } from '@svc/service-kit';
import { failRotation, type RewrapDeps, runRewrap } from '../domain/rotation/run-rewrap';
import type { EnqueueRewrap } from '../domain/rotation/start-rotation';

// Attempts of one job (catalog: transient retry with backoff): the last failing one fails the rotation.
const ATTEMPTS = platformCatalog.jobs['vault.rewrap'].options.attempts;

/** The domain's port to add the job (`jobs.vault.rewrap`, deduplicated by job id). */
export function rewrapEnqueuer(bus: Bus<PlatformCatalog>): EnqueueRewrap {
  return async (target, jobId) => {
    await enqueueJob(bus, 'vault.rewrap', { target_version: target }, { jobId });
  };
}

export interface RewrapWorkerOptions {
  batchSize?: number;
  /** ms a job's lock lasts without renewal (a killed process's job is taken over after it). */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

/**
 * Processes `vault.rewrap` one job at a time in this process (any vault replica may take it). A
 * failure is retried with backoff (a keyring not yet re-read, the database away); the last attempt
 * marks the rotation failed with the reason, and `pnpm admin vault rotate` starts it again.
 */
export function startRewrapWorker(
  bus: Bus<PlatformCatalog>,
  deps: RewrapDeps & { logger: Logger },
  options: RewrapWorkerOptions = {},
): Closable {
  const processor = processJobs(
    bus,
    'vault.rewrap',
    async ({ target_version: target }, context) => {
      try {
        // BullMQ job progress as well as the rotations row: this attempt's counts so far.
        let rewrapped = 0;
        const outcome = await runRewrap(deps, target, {
          signal: context.signal,
          onBatch: async (batch) => {
            rewrapped += batch.rewrapped;
            await context.progress({ target_version: target, rewrapped });
          },
          ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
        });
        if (outcome.state === 'superseded') {
          deps.logger.warn(
            { target, current: outcome.current },
            'vault re-wrap superseded by a newer key version',
          );
          return { rewrapped: 0 };
        }
        deps.logger.info({ target, rewrapped: outcome.rewrapped }, 'vault re-wrap completed');
        return { rewrapped: outcome.rewrapped };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        deps.logger.warn({ target, attempt: context.attempt, err: message }, 'vault re-wrap attempt failed');
        if (context.attempt >= ATTEMPTS) await failRotation(deps, target, message);
        throw err;
      }
    },
    {
      ...(options.lockDurationMs === undefined ? {} : { lockDurationMs: options.lockDurationMs }),
      ...(options.stalledIntervalMs === undefined ? {} : { stalledIntervalMs: options.stalledIntervalMs }),
    },
  );
  return { name: 'rewrap worker', close: () => processor.close() };
}
