import type { RunMetrics } from '@svc/bus';
import type { ProducedArtifact, RunError } from '@svc/contracts';

/**
 * What one attempt of a capability ended with, as the capability's runner returns it; the job
 * handler turns it into a `runs.report`. A `failed` outcome is a result of the input or of an
 * outside provider (provider_unavailable, render_failed, output_too_large): final, no retry.
 */
export type CapabilityOutcome =
  | {
      kind: 'completed';
      result: Record<string, unknown>;
      metrics?: RunMetrics;
      /** Files the run wrote to object storage (run-storage.ts), reported with `completed`. */
      artifacts?: ProducedArtifact[];
    }
  | {
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

/** Runs one attempt of a capability: resolves with the outcome; throws on faults (retried) and on abort. */
export type CapabilityRunner<Payload> = (payload: Payload, signal: AbortSignal) => Promise<CapabilityOutcome>;
