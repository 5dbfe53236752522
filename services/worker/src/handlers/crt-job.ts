import {
  type Bus,
  enqueueJob,
  INTERNAL_RUN_ERROR,
  type JobHandler,
  jobCatalog,
  type RunReport,
} from '@svc/bus';
import { INTERNAL_ERROR_MESSAGE } from '@svc/errors';
import type { Logger } from '@svc/log';
import type { CrtOutcome, CrtRunner } from '../domain/crt/crt-runner';

/** Attempts BullMQ makes of one `capability.crt` job (the catalog's; the last one reports `failed`). */
const CRT_JOB_ATTEMPTS = jobCatalog['capability.crt'].options.attempts;

export interface CrtJobDeps {
  bus: Bus;
  runCrt: CrtRunner;
  logger: Logger;
  /** Clock for report times (tests); default Date.now. */
  now?: () => number;
}

/** Distributive Omit, so each RunReport variant keeps its own fields. */
type ReportBody = RunReport extends infer R
  ? R extends RunReport
    ? Omit<R, 'run_id' | 'attempt' | 'at'>
    : never
  : never;

/**
 * `capability.crt` (design step 4): reports `started`, runs crt (cache, providers, result), reports
 * `completed` or `failed` to the orchestrator through `runs.report` jobs. Every provider failing is
 * a result, not a job failure: it reports `failed` (code provider_unavailable) and returns without a
 * BullMQ retry. An unexpected error reports `retrying` and rethrows while attempts remain (BullMQ
 * retries with backoff); on the last attempt it reports `failed` (code internal) and returns.
 *
 * Report job ids are `report-<run_id>-<event>-<attempt>`: a redelivered job (at-least-once) adds no
 * second report for the same attempt, and the orchestrator ignores transitions that do not move a
 * run forward. If a report cannot be enqueued (Redis down), the error propagates and BullMQ retries
 * the whole job; the per-apex cache makes the repeat cheap.
 */
export function crtJobHandler(deps: CrtJobDeps): JobHandler<'capability.crt'> {
  const now = deps.now ?? Date.now;
  return async (payload, context) => {
    const logger = deps.logger.child({ run_id: payload.run_id, attempt: context.attempt });
    const report = async (body: ReportBody): Promise<void> => {
      const full = {
        ...body,
        run_id: payload.run_id,
        attempt: context.attempt,
        at: new Date(now()).toISOString(),
      };
      await enqueueJob(deps.bus, 'runs.report', full, {
        jobId: `report-${payload.run_id}-${body.event}-${context.attempt}`,
      });
    };

    await report({ event: 'started' });
    let outcome: CrtOutcome;
    try {
      outcome = await deps.runCrt(
        { apex: payload.apex, include_first_seen: payload.include_first_seen, limit: payload.limit },
        context.signal,
      );
    } catch (err) {
      logger.error({ err }, 'crt run failed unexpectedly');
      if (context.attempt < CRT_JOB_ATTEMPTS) {
        await report({
          event: 'retrying',
          error: `${INTERNAL_ERROR_MESSAGE} (attempt ${context.attempt} of ${CRT_JOB_ATTEMPTS})`,
        });
        throw err;
      }
      await report({ event: 'failed', error: INTERNAL_RUN_ERROR });
      return { outcome: 'failed' };
    }

    if (outcome.kind === 'completed') {
      await report({ event: 'completed', result: outcome.result, metrics: outcome.metrics });
      logger.info({ ...outcome.metrics, count: outcome.result.count }, 'crt run completed');
      return { outcome: 'completed' };
    }
    await report({ event: 'failed', error: outcome.error, metrics: outcome.metrics });
    logger.warn(
      { ...outcome.metrics, error: outcome.error.message },
      'crt run failed: providers unavailable',
    );
    return { outcome: 'failed' };
  };
}
