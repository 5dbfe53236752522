/**
 * Redis keys that services share outside the bus's queues (a wire contract like the queue names:
 * never rename one without a drain plan). Every key is namespaced by the bus prefix.
 */

/**
 * Cancel marker of a run (`SET … EX`, a day): set by the orchestrator on every cancel, read by a
 * worker before it starts the run's job, so a job picked up in the instant of a cancel is skipped.
 */
export function runCancelKey(prefix: string, runId: string): string {
  return `${prefix}:runs:cancel:${runId}`;
}

/** ms: how long a cancel marker is kept (longer than any job waits in a queue or backoff). */
export const RUN_CANCEL_KEY_TTL_MS = 24 * 3_600_000;

/**
 * Workers up per runtime: a sorted set of worker ids scored by when their heartbeat lapses (ms since
 * the epoch). "Is a `browser` worker up?" is `ZCOUNT <key> <now> +inf` > 0, one O(log n) call.
 */
export function runtimeWorkersKey(prefix: string, runtime: string): string {
  return `${prefix}:runtimes:${runtime}`;
}
