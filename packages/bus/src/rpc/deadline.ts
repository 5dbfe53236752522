import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Deadline propagation: a handler's calls to other services end before its own caller gives up, so
 * the 503 its caller hears names the service that did not answer, not the one in the middle (issue
 * 15 finding 3). Without it, a request that waited for a free slot behind calls to a dead service
 * (the orchestrator's slots held by settlements waiting on a killed wallet) still gave its own wallet
 * call the whole timeout, and its caller timed out first, naming the orchestrator.
 *
 * The deadline rides on the async context of the handler (as gRPC's does on its call), so domain
 * code and ports pass nothing: `answerRequest` runs each handler inside `withRequestDeadline`, and
 * `serviceClient` bounds every call by `boundedTimeoutMs`.
 */
const requestDeadline = new AsyncLocalStorage<number>();

/**
 * ms a caller adds to RPC_TIMEOUT_MS when it calls a service that calls others itself (the
 * orchestrator, the uploads service, the vault): the time such a service may take, after its own
 * call failed, to answer with the 503 that names the service that was down.
 */
export const NESTED_CALL_MARGIN_MS = 1_000;

/**
 * ms a handler keeps, after its nested call has failed, to answer its own caller (a write, the
 * reply): half of NESTED_CALL_MARGIN_MS, the other half covers the hops.
 */
export const ANSWER_RESERVE_MS = NESTED_CALL_MARGIN_MS / 2;

/** Runs `handler` with `deadline` (epoch ms) as the deadline its nested calls are bounded by. */
export function withRequestDeadline<T>(deadline: number, handler: () => Promise<T>): Promise<T> {
  return requestDeadline.run(deadline, handler);
}

/**
 * The timeout of a call made now: `timeoutMs`, or less inside a handler whose caller's deadline
 * comes sooner (its deadline less ANSWER_RESERVE_MS, at least 1 ms). Once that deadline has passed,
 * the call keeps `timeoutMs`: the handler is finishing work its caller no longer waits for (which
 * may still have to be done), or the call comes from work started inside a handler that outlives it.
 */
export function boundedTimeoutMs(timeoutMs: number, now: number = Date.now()): number {
  const deadline = requestDeadline.getStore();
  if (deadline === undefined || deadline <= now) return timeoutMs;
  return Math.min(timeoutMs, Math.max(1, deadline - now - ANSWER_RESERVE_MS));
}
