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
 * `serviceClient` bounds every call by `callTimeout`.
 *
 * Who a bounded call's 503 names: a service that never took the request (its list still holds it:
 * down, or its slots all busy) is named, as for any timeout; one that took it but had not answered
 * when the deadline came is not (deadlineSpentError): it was up, the request was out of time. So a
 * request that waited in a restarted orchestrator's queue and met a slow but live wallet does not
 * blame the wallet.
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

/**
 * Whether this process makes RPC calls at all (it made a serviceClient). Until it does, handlers
 * run without the store: with one active, Node 20 tracks the context of every promise (about
 * 0.15 µs per awaited promise, measured alone; in the pii bench it stayed within the noise), a cost
 * only a process with calls to bound needs to pay (the wallet and the registry call no one).
 */
let propagating = false;

/** Called by serviceClient: from now on, handlers of this process run with their deadline. */
export function propagateDeadlines(): void {
  propagating = true;
}

/** Runs `handler` with `deadline` (epoch ms) as the deadline its nested calls are bounded by. */
export function withRequestDeadline<T>(deadline: number, handler: () => Promise<T>): Promise<T> {
  return propagating ? requestDeadline.run(deadline, handler) : handler();
}

/**
 * The timeout of a call made now: `timeoutMs`, or less inside a handler whose caller's deadline
 * comes sooner (its deadline less ANSWER_RESERVE_MS, at least 1 ms; `bounded` then says so). Once
 * that deadline has passed, the call keeps `timeoutMs`: the handler is finishing work its caller no
 * longer waits for (which may still have to be done), or the call comes from work started inside a
 * handler that outlives it.
 */
export function callTimeout(
  timeoutMs: number,
  now: number = Date.now(),
): { timeoutMs: number; bounded: boolean } {
  const deadline = requestDeadline.getStore();
  if (deadline === undefined || deadline <= now) return { timeoutMs, bounded: false };
  const left = Math.max(1, deadline - now - ANSWER_RESERVE_MS);
  return left < timeoutMs ? { timeoutMs: left, bounded: true } : { timeoutMs, bounded: false };
}
