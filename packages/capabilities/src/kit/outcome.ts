import type { ProducedArtifact, RunError, RunMetrics } from '@svc/contracts';

/**
 * What one attempt of a capability ended with, as its handler returns it; the worker's generic
 * capability job turns it into an `orchestrator.reportRun` call. `Result` is what a completed run
 * returns: the capability's result schema's input type (defineCapability checks the handler's
 * against it, so a wrong result does not compile; the orchestrator still parses every report).
 */
export type CapabilityOutcome<Result = Record<string, unknown>> = CompletedOutcome<Result> | FailedOutcome;

export type CompletedOutcome<Result = Record<string, unknown>> = {
  kind: 'completed';
  result: Result;
  metrics?: RunMetrics;
  /** Files the run wrote to object storage (RunStorage.writeArtifact), reported with `completed`. */
  artifacts?: ProducedArtifact[];
};

/**
 * A `failed` outcome is a result of the input or of an outside provider (provider_unavailable,
 * render_failed, output_too_large): final, no retry.
 */
export type FailedOutcome = {
  kind: 'failed';
  /**
   * What the client reads on the run: in our words, saying what the client can act on (issue 13:
   * never a library's internals such as libvips' or a parser's own lines).
   */
  error: RunError;
  metrics?: RunMetrics;
  /** What the library or provider said, for operators: written to the worker's log, never reported. */
  detail?: string;
};

/**
 * A fault worth another attempt whose words are ours to show (a render timeout): the job handler
 * reports `retrying` with `runError.message` while attempts remain, and `failed` with `runError`
 * itself on the last one (instead of the anonymous `internal` of an unexpected error).
 */
export class RetryableRunError extends Error {
  constructor(readonly runError: RunError) {
    super(runError.message);
    this.name = 'RetryableRunError';
  }
}

/**
 * The reason a run's signal is aborted with when its cancellation is requested (the worker's
 * ActiveRuns): tells a cancel apart from a shutdown or a timeout.
 */
export class RunCancelledError extends Error {
  constructor(readonly runId: string) {
    super(`run ${runId} was cancelled`);
    this.name = 'RunCancelledError';
  }
}
