/**
 * Redis keys that services share outside the bus's queues (a wire contract like the queue names:
 * never rename one without a drain plan). Every key is namespaced by the bus prefix.
 */

/**
 * Workers up per runtime: a sorted set of worker ids scored by when their heartbeat lapses (ms since
 * the epoch). "Is a `browser` worker up?" is `ZCOUNT <key> <now> +inf` > 0, one O(log n) call.
 */
export function runtimeWorkersKey(prefix: string, runtime: string): string {
  return `${prefix}:runtimes:${runtime}`;
}

/**
 * Workers up per capability (issue 25: pools that serve chosen capabilities, WORKER_CAPABILITIES):
 * the same sorted set as runtimeWorkersKey, one per capability a worker consumes the queue of. "Can a
 * worker take a run of this capability?" is `ZCOUNT <key> <now> +inf` > 0.
 */
export function capabilityWorkersKey(prefix: string, slug: string): string {
  return `${prefix}:capability-workers:${slug}`;
}

/**
 * Runs a live worker holds (issue 15): a sorted set, member = run id, score = when the hold lapses
 * (ms since the epoch). Every worker heartbeat (5 s) re-adds the runs it has claimed and not yet
 * reported, scored a heartbeat TTL ahead: from the claim until the orchestrator acknowledged the
 * final report, result held included. The dispatcher must not hand over again a `running` run whose
 * job vanished while its hold is live (`ZMSCORE <key> <run ids…>` > now): its worker is still on it
 * and will report; after a Redis restart, holds are back within one heartbeat.
 */
export function heldRunsKey(prefix: string): string {
  return `${prefix}:runs:held`;
}

/**
 * ms: how far ahead a worker's heartbeat (every 5 s) scores what it announces in runtimeWorkersKey
 * and heldRunsKey: three beats, so one slow or failed beat does not drop the worker or its holds.
 * Readers rely on it: after a Redis restart the dispatcher waits this long for holds to come back.
 */
export const WORKER_HEARTBEAT_TTL_MS = 15_000;
