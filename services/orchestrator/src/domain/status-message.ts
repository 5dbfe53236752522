import type { RunError, RunState } from '@svc/contracts';

/** What the words of a run's state depend on (docs/decisions.md L-A). */
export interface StatusFacts {
  status: RunState;
  /** Attempts started so far (the highest `attempt` a worker reported). */
  attempts: number;
  /** Effective execution status the run was recorded with (supported, requires_worker, plan_only). */
  executionStatus: string;
  runtime: string;
  /** Why the last attempt failed, while retrying. */
  lastError: string | null;
  cancelRequestedAt: Date | null;
  /** The error shown for a failed run. */
  error?: RunError | undefined;
  /** The runtime no worker of which is up (waiting_for_runtime), or null. */
  waitingForRuntime: string | null;
}

/** `status_message` of a RunRecord: the run's state in words, e.g. why it waits or is retried. */
export function statusMessage(facts: StatusFacts): string {
  switch (facts.status) {
    case 'queued':
      return facts.waitingForRuntime === null
        ? 'queued: waiting for a worker'
        : `queued: waiting for a worker with runtime ${facts.waitingForRuntime}; none is up yet, the run starts when one is`;
    case 'running': {
      const attempt = Math.max(1, facts.attempts);
      // Attempt 2+ means an earlier attempt stopped: a retry after a fault, or a worker that died
      // and whose job BullMQ handed to another one (stalled-job recovery, docs/decisions.md L-C).
      const base =
        attempt > 1
          ? `running (attempt ${attempt}; picked up again after the previous attempt stopped)`
          : `running (attempt ${attempt})`;
      return facts.cancelRequestedAt === null
        ? base
        : `${base}; cancellation requested at ${facts.cancelRequestedAt.toISOString()}`;
    }
    case 'retrying': {
      const why = facts.lastError === null ? '' : ` (${facts.lastError})`;
      return `retrying: attempt ${Math.max(1, facts.attempts)} failed${why}; the next attempt starts after a backoff`;
    }
    case 'completed':
      return facts.executionStatus === 'plan_only'
        ? 'completed: plan ready; the server ran nothing'
        : 'completed';
    case 'failed':
      return facts.error === undefined ? 'failed' : `failed: ${facts.error.message}`;
    case 'cancelled':
      return 'cancelled';
  }
}

/**
 * `waiting_for_runtime`: the runtime of a queued or retrying `requires_worker` run while no worker
 * of it is up; null otherwise, and null when availability was not checked (`workerUp` undefined).
 */
export function waitingForRuntime(
  facts: Pick<StatusFacts, 'status' | 'executionStatus' | 'runtime'>,
  workerUp: boolean | undefined,
): string | null {
  return needsWorkerCheck(facts) && workerUp === false ? facts.runtime : null;
}

/** Whether getRun must ask Redis if a worker of the run's runtime is up (only then, design). */
export function needsWorkerCheck(facts: Pick<StatusFacts, 'status' | 'executionStatus'>): boolean {
  return (
    (facts.status === 'queued' || facts.status === 'retrying') && facts.executionStatus === 'requires_worker'
  );
}
