import type { JobContext } from '@svc/bus';
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
import { crashPoint } from '@svc/service-kit';
import type { AttemptPort } from '../adapters/orchestrator-attempts';
import type { ActiveRuns } from '../domain/capability/active-runs';
import { type AskPolicy, untilAnswered } from '../domain/until-answered';

/** How long the worker keeps asking the orchestrator, per call (docs/decisions.md, issue 15). */
export interface AskPolicies {
  /** The claim: past it the job throws and BullMQ retries it later (nothing ran). */
  claim: AskPolicy;
  /** A final report (completed, failed, cancelled): the job holds its result (and its lock) meanwhile. */
  final: AskPolicy;
  /** A `retrying` report: only a status shown meanwhile, so given up sooner (the job is retried anyway). */
  retrying: AskPolicy;
}

/** 100 ms doubling to 2 s; a minute for a claim, 10 min for a result, 30 s for a retrying note. */
export const DEFAULT_ASK_POLICIES: AskPolicies = {
  claim: { firstDelayMs: 100, maxDelayMs: 2_000, giveUpAfterMs: 60_000 },
  final: { firstDelayMs: 100, maxDelayMs: 2_000, giveUpAfterMs: 10 * 60_000 },
  retrying: { firstDelayMs: 100, maxDelayMs: 2_000, giveUpAfterMs: 30_000 },
};

export interface CapabilityJobDeps {
  /** The orchestrator's claimAttempt and reportRun. */
  attempts: AttemptPort;
  logger: Logger;
  /** How long each call is repeated until answered; default DEFAULT_ASK_POLICIES. */
  ask?: AskPolicies;
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

/** What every capability job answers (the catalog's result; outcomes travel as `reportRun` calls). */
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
    ? Omit<R, 'run_id' | 'job_id' | 'attempt' | 'at'>
    : never
  : never;

/**
 * The life of one capability job on a worker (design "Worker", issue 15), whatever the capability:
 *
 * 1. The run is registered in `activeRuns` first, then claimed (`orchestrator.claimAttempt` with
 *    the BullMQ job id): the orchestrator moves it to `running` and answers the attempt it counted,
 *    or refuses (the run is final or cancelled, this job was superseded by another hand-over, or
 *    the run is unknown): the job then returns `skipped` without running anything. Registering
 *    first means a cancel request that lands between the claim and the run still aborts it.
 * 2. The runner gets a signal aborted by either BullMQ (worker closing) or a cancellation request.
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
 * Every report is `orchestrator.reportRun`, asked again (100 ms doubling to 2 s) until the
 * orchestrator answers, which it does once the report is committed: the job completes only then.
 * A result therefore survives Redis losing the job (or restarting empty): the worker holds it and
 * keeps asking; the orchestrator applies the first final report of a run and ignores repeats. If
 * it gives up (10 min), it throws: BullMQ retries the job and the next claim says `final` if the
 * report did land after all.
 */
export function capabilityJobHandler<Payload extends { run_id: string }>(
  job: CapabilityJobName,
  deps: CapabilityJobDeps,
  run: CapabilityRunner<Payload>,
): (payload: Payload, context: JobContext) => Promise<CapabilityJobResult> {
  const now = deps.now ?? Date.now;
  const ask = deps.ask ?? DEFAULT_ASK_POLICIES;
  /** Attempts BullMQ makes of one job (the catalog's; the last one reports `failed`). */
  const attempts = jobCatalog[job].options.attempts ?? 1;

  const attemptOnce = async (payload: Payload, context: JobContext): Promise<CapabilityJobResult> => {
    const runId = payload.run_id;
    const jobId = context.jobId;
    const jobLogger = deps.logger.child({ job, run_id: runId, job_id: jobId });
    /** Logs the first failed try and then every power of two, not one line per try for 10 min. */
    const onRetry = (what: string) => (err: unknown, tries: number) => {
      if ((tries & (tries - 1)) === 0) jobLogger.warn({ err, tries }, `${what}: no answer yet, asking again`);
    };

    const active = deps.activeRuns.register(runId);
    try {
      const claim = await untilAnswered(
        () => deps.attempts.claimAttempt({ run_id: runId, job_id: jobId }),
        ask.claim,
        onRetry('claim'),
      );
      if (!claim.go) {
        jobLogger.info({ reason: claim.reason }, 'run not started: its claim was refused');
        return { outcome: 'skipped' };
      }
      const attempt = claim.attempt;
      const logger = jobLogger.child({ attempt });
      const report = async (body: ReportBody, policy: AskPolicy): Promise<void> => {
        const full = { ...body, run_id: runId, job_id: jobId, attempt, at: new Date(now()).toISOString() };
        await untilAnswered(() => deps.attempts.reportRun(full), policy, onRetry(`${body.event} report`));
      };

      const signal = AbortSignal.any([context.signal, active.cancelSignal]);
      let outcome: CapabilityOutcome;
      try {
        outcome = await run(payload, signal, logger);
      } catch (err) {
        if (active.cancelled) {
          await report({ event: 'cancelled' }, ask.final);
          logger.info('run cancelled while running');
          return { outcome: 'cancelled' };
        }
        const known = err instanceof RetryableRunError ? err.runError : undefined;
        if (known) logger.warn({ err: known.message }, 'run attempt failed');
        else logger.error({ err }, 'run failed unexpectedly');
        if (context.attempt < attempts) {
          // The message counts BullMQ retries (attemptsMade), which a stall does not use up. The
          // note is only what the run shows meanwhile: the retry happens whether or not it landed.
          await report(
            {
              event: 'retrying',
              error: `${known?.message ?? INTERNAL_ERROR_MESSAGE} (attempt ${context.attempt} of ${attempts})`,
            },
            ask.retrying,
          ).catch((reportErr: unknown) => {
            logger.warn({ err: reportErr }, 'retrying report not delivered; the job is retried anyway');
          });
          throw err;
        }
        await report({ event: 'failed', error: known ?? INTERNAL_RUN_ERROR }, ask.final);
        return { outcome: 'failed' };
      }
      // The crash tests' point: the result exists only in this process, the report is not sent.
      crashPoint('worker.run-finished');

      if (outcome.kind === 'completed') {
        await report(
          {
            event: 'completed',
            result: outcome.result,
            metrics: outcome.metrics,
            ...(outcome.artifacts === undefined ? {} : { artifacts: outcome.artifacts }),
          },
          ask.final,
        );
        logger.info({ ...outcome.metrics }, 'run completed');
        return { outcome: 'completed' };
      }
      if (active.cancelled) {
        // The failure is what the cut work looked like (e.g. aborted provider calls), not a result.
        await report({ event: 'cancelled' }, ask.final);
        logger.info('run cancelled while running');
        return { outcome: 'cancelled' };
      }
      // Only `error` leaves the worker; `detail` (a library's own words) stays in this log line.
      await report({ event: 'failed', error: outcome.error, metrics: outcome.metrics }, ask.final);
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
