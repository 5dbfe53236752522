import { z } from 'zod';
import { ProducedArtifact } from '../artifacts';
import { DateTime, Uuid } from '../common';
import { RunError } from '../run';

/**
 * The worker's side of a run (issue 15): `orchestrator.claimAttempt` before it runs a capability
 * job, `orchestrator.reportRun` when the attempt ends. Both are RPC: the orchestrator answers only
 * after the row change is committed, so a worker that got an answer knows PostgreSQL has it, and a
 * worker that did not keeps asking (nothing depends on a queued message Redis may forget).
 */

/** BullMQ job id of a hand-over, `run-<run_id>-<n>` (the run's `job_id` column). */
export const RunJobId = z.string().min(1).max(200);

/** `orchestrator.claimAttempt`: may the job `job_id` run `run_id` now? */
export const ClaimAttemptRequest = z.object({ run_id: Uuid, job_id: RunJobId });

/**
 * Why a claim is refused: `final` the run is completed or failed (its result is recorded),
 * `cancelled` it is cancelled (now or before), `superseded` another hand-over (job) is the run's
 * current one, `unknown` no such run.
 */
export const ClaimRefusal = z.enum(['final', 'cancelled', 'superseded', 'unknown']);
export type ClaimRefusal = z.infer<typeof ClaimRefusal>;

/**
 * `go: true` with the attempt the orchestrator counted (the run is now `running`; reports carry this
 * attempt), or `go: false` with why: the worker then returns without running the capability.
 */
export const ClaimAttemptResponse = z.discriminatedUnion('go', [
  z.object({ go: z.literal(true), attempt: z.number().int().min(1) }),
  z.object({ go: z.literal(false), reason: ClaimRefusal }),
]);
export type ClaimAttemptResponse = z.infer<typeof ClaimAttemptResponse>;

/** Where a run's time went, recorded with the run for `pnpm bench` and operators (not on the wire). */
export const RunMetrics = z.object({
  /** Provider that answered (crt: `crt.sh` or `certspotter`). */
  provider: z.string().optional(),
  /** ms spent waiting on providers, retries and failover included (0 on a cache hit). */
  provider_ms: z.number().nonnegative().optional(),
  /** Per-apex provider cache: hit, miss, or off (disabled). */
  cache: z.enum(['hit', 'miss', 'off']).optional(),
});
export type RunMetrics = z.infer<typeof RunMetrics>;

const ReportBase = {
  run_id: Uuid,
  /** The job that ran the attempt (the `job_id` it claimed with). */
  job_id: RunJobId,
  /** The attempt claimAttempt answered (the orchestrator's count; 1 = first). */
  attempt: z.number().int().min(1),
  /** When it happened, by the worker's clock. */
  at: DateTime,
};

/**
 * `orchestrator.reportRun`: how a claimed attempt ended. The orchestrator applies it with one
 * conditional UPDATE (a repeated or late report changes nothing) and answers `applied`; the worker
 * retries the call until it gets an answer and only then completes its job.
 */
export const RunReport = z.discriminatedUnion('event', [
  /** The attempt failed on a transient fault and BullMQ will retry it. */
  z.object({ event: z.literal('retrying'), ...ReportBase, error: z.string() }),
  z.object({
    event: z.literal('completed'),
    ...ReportBase,
    /** The capability result (crt: CrtResult, at most 1000 observations). */
    result: z.record(z.string(), z.unknown()),
    metrics: RunMetrics.optional(),
    /** Files the run wrote to object storage (registered by the orchestrator before it shows completed). */
    artifacts: z.array(ProducedArtifact).max(100).optional(),
  }),
  z.object({ event: z.literal('failed'), ...ReportBase, error: RunError, metrics: RunMetrics.optional() }),
  /** The handler stopped on a cancellation request (spec §4.10: cooperative). */
  z.object({ event: z.literal('cancelled'), ...ReportBase }),
]);
export type RunReport = z.infer<typeof RunReport>;

/** `orchestrator.reportRun`'s answer: true when the report moved the run. */
export const ReportRunResponse = z.object({ applied: z.boolean() });

/**
 * `wallet.settle`: capture (completed) or release (failed, cancelled, or a hold whose run was never
 * recorded) the hold of a paid final run. Idempotent: the wallet writes one line per run and kind,
 * so a repeated call answers `applied: false` and changes nothing.
 */
export const SettleRunRequest = z.object({
  run_id: Uuid,
  client_id: Uuid,
  outcome: z.enum(['capture', 'release']),
  /** Ledger note, e.g. "run completed", "run failed: provider_unavailable". */
  reason: z.string().max(500),
});
export const SettleRunResponse = z.object({
  /** False when nothing was written: no hold, or it was captured or released already. */
  applied: z.boolean(),
});
