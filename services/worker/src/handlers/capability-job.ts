import { enqueueJob, type JobContext } from '@svc/bus';
import {
  type CapabilityJobName,
  type CapabilityOutcome,
  type JobResultInput,
  jobCatalog,
  RetryableRunError,
} from '@svc/capabilities';
import { INTERNAL_RUN_ERROR, type RunReport } from '@svc/contracts';
import { INTERNAL_ERROR_MESSAGE } from '@svc/errors';
import type { Logger } from '@svc/log';
import { isCancelRequested } from '../adapters/run-cancel-key';
import type { ActiveRuns } from '../domain/capability/active-runs';
import type { WorkerBus } from '../worker-bus';

export interface CapabilityJobDeps {
  bus: WorkerBus;
  logger: Logger;
  /** The runs of this process, reached by `run.cancel-requested` (handlers/cancel-requests.ts). */
  activeRuns: ActiveRuns;
  /** Clock for report times (tests); default Date.now. */
  now?: () => number;
  /** Told how each attempt ended and how long it took (the worker's /metrics); optional. */
  observe?: RunObserver;
}

/** One attempt as metrics see it: `retrying` is an attempt that threw (BullMQ retries it). */
export interface RunSample {
  job: CapabilityJobName;
  outcome: CapabilityJobResult['outcome'] | 'retrying';
  seconds: number;
}
export type RunObserver = (sample: RunSample) => void;

/** What every capability job answers (the catalog's result; outcomes travel as `runs.report` jobs). */
export type CapabilityJobResult = JobResultInput<CapabilityJobName>;

/**
 * Runs one attempt of a capability: resolves with the outcome; throws on faults (retried) and on
 * abort. `logger` has the job, run id and attempt bound.
 */
export type CapabilityRunner<Payload> = (
  payload: Payload,
  signal: AbortSignal,
  logger: Logger,
) => Promise<CapabilityOutcome>;

/** Distributive Omit, so each RunReport variant keeps its own fields. */
type ReportBody = RunReport extends infer R
  ? R extends RunReport
    ? Omit<R, 'run_id' | 'attempt' | 'at'>
    : never
  : never;

/**
 * The life of one capability job on a worker (design "Worker"), whatever the capability:
 *
 * 1. The run is registered in `activeRuns` first, then the cancel key is read: a run the
 *    orchestrator already cancelled is skipped without any report (`skipped`). Registering first
 *    means a cancel that lands in between is caught by one or the other. A job started before
 *    (retry, stalled-job recovery) whose key is set reports `cancelled` instead: its run may be
 *    `running` with a cancel requested while no worker held it, and nothing else would end it.
 * 2. `started` is reported; the runner gets a signal aborted by either BullMQ (worker closing) or a
 *    cancellation request.
 * 3. completed → report `completed` {result, metrics, artifacts} (artifacts: files the runner
 *    already wrote to object storage; the orchestrator registers them before the run shows
 *    completed). failed (a domain outcome: provider down, page not renderable, output too large,
 *    invalid input file) → report `failed`, no BullMQ retry. Stopped by the
 *    cancellation (it threw, or failed because its work was cut) → report `cancelled`. A runner that
 *    finished before the cancel reached it reports `completed` (the run is charged).
 * 4. A throw (a bug, a crashed browser, a RetryableRunError such as a render timeout) → report
 *    `retrying` and rethrow while BullMQ attempts remain; on the last attempt report `failed`
 *    (`internal`, or the RetryableRunError's own error) and return.
 *
 * Reports carry `attempt` = times the job was started (BullMQ attemptsStarted): a retry and a
 * stalled-job recovery both count, so the orchestrator sees a picked-up-again run move on. Report job
 * ids are `report-<run_id>-<event>-<attempt>`: a redelivered job adds no second report for the same
 * attempt. If a report cannot be enqueued (Redis down), the error propagates and BullMQ retries the
 * whole job.
 */
export function capabilityJobHandler<Payload extends { run_id: string }>(
  job: CapabilityJobName,
  deps: CapabilityJobDeps,
  run: CapabilityRunner<Payload>,
): (payload: Payload, context: JobContext) => Promise<CapabilityJobResult> {
  const now = deps.now ?? Date.now;
  /** Attempts BullMQ makes of one job (the catalog's; the last one reports `failed`). */
  const attempts = jobCatalog[job].options.attempts ?? 1;

  const attemptOnce = async (payload: Payload, context: JobContext): Promise<CapabilityJobResult> => {
    const runId = payload.run_id;
    const attempt = context.started;
    const logger = deps.logger.child({ job, run_id: runId, attempt });
    const report = async (body: ReportBody): Promise<void> => {
      const full = { ...body, run_id: runId, attempt, at: new Date(now()).toISOString() };
      await enqueueJob(deps.bus, 'runs.report', full, { jobId: `report-${runId}-${body.event}-${attempt}` });
    };

    const active = deps.activeRuns.register(runId);
    try {
      if (await isCancelRequested(deps.bus, runId)) {
        if (context.started === 1) {
          // Never started: the orchestrator cancelled the queued run itself.
          logger.info('run skipped: it was cancelled before it started');
          return { outcome: 'skipped' };
        }
        // Started before (a retry, or picked up again after its worker died): the run may still be
        // `running` with a cancellation requested that no live worker heard. Say it is cancelled;
        // the orchestrator ignores this if it already ended the run.
        await report({ event: 'cancelled' });
        logger.info('run cancelled before this attempt started');
        return { outcome: 'cancelled' };
      }

      await report({ event: 'started' });
      const signal = AbortSignal.any([context.signal, active.cancelSignal]);
      let outcome: CapabilityOutcome;
      try {
        outcome = await run(payload, signal, logger);
      } catch (err) {
        if (active.cancelled) {
          await report({ event: 'cancelled' });
          logger.info('run cancelled while running');
          return { outcome: 'cancelled' };
        }
        const known = err instanceof RetryableRunError ? err.runError : undefined;
        if (known) logger.warn({ err: known.message }, 'run attempt failed');
        else logger.error({ err }, 'run failed unexpectedly');
        if (context.attempt < attempts) {
          // The message counts BullMQ retries (attemptsMade), which a stall does not use up.
          await report({
            event: 'retrying',
            error: `${known?.message ?? INTERNAL_ERROR_MESSAGE} (attempt ${context.attempt} of ${attempts})`,
          });
          throw err;
        }
        await report({ event: 'failed', error: known ?? INTERNAL_RUN_ERROR });
        return { outcome: 'failed' };
      }

      if (outcome.kind === 'completed') {
        await report({
          event: 'completed',
          result: outcome.result,
          metrics: outcome.metrics,
          ...(outcome.artifacts === undefined ? {} : { artifacts: outcome.artifacts }),
        });
        logger.info({ ...outcome.metrics }, 'run completed');
        return { outcome: 'completed' };
      }
      if (active.cancelled) {
        // The failure is what the cut work looked like (e.g. aborted provider calls), not a result.
        await report({ event: 'cancelled' });
        logger.info('run cancelled while running');
        return { outcome: 'cancelled' };
      }
      // Only `error` leaves the worker; `detail` (a library's own words) stays in this log line.
      await report({ event: 'failed', error: outcome.error, metrics: outcome.metrics });
      logger.warn(
        {
          ...outcome.metrics,
          error: outcome.error.message,
          ...(outcome.detail ? { detail: outcome.detail } : {}),
        },
        'run failed',
      );
      return { outcome: 'failed' };
    } finally {
      active.release();
    }
  };

  return async (payload, context) => {
    const started = performance.now();
    const observe = (outcome: RunSample['outcome']) =>
      deps.observe?.({ job, outcome, seconds: (performance.now() - started) / 1_000 });
    try {
      const result = await attemptOnce(payload, context);
      observe(result.outcome);
      return result;
    } catch (err) {
      observe('retrying');
      throw err;
    }
  };
}
