import { ServiceUnavailableError } from '@svc/errors';
import type { Logger } from '@svc/log';

/** One call, its request already checked against the method's schema (service-client.ts). */
export interface OutgoingCall {
  service: string;
  method: string;
  request: unknown;
  /** ms: how long the caller waits for the answer before it fails with 503. */
  timeoutMs: number;
  /**
   * `timeoutMs` is what the deadline of the request being answered left, less than the call's own
   * timeout (deadline.ts). A call the service took but did not answer in that time then fails with
   * deadlineSpentError, not naming the service: it was working, this request was out of time.
   */
  bounded?: boolean;
}

/**
 * What carries a call to the service's handlers and its reply back: Redis (redis-transport.ts) in
 * every process, or the in-memory transport (in-memory-transport.ts) that tests hand a service's
 * real handlers to. Either resolves with the reply's data, not yet checked against the response
 * schema, or throws what the caller must see (the remote AppError rebuilt from the wire; 503 when the
 * service cannot be reached or does not answer in time; 500 for a request that cannot be encoded).
 */
export interface RpcTransport {
  send(call: OutgoingCall): Promise<unknown>;
  /** Where the client logs an answer that does not match the response schema. */
  readonly logger: Logger;
}

/** The 503 of a call that got no answer in time: the same words whatever the transport. */
export function timedOutError(service: string, timeoutMs: number): ServiceUnavailableError {
  return new ServiceUnavailableError(`${service} service did not answer within ${timeoutMs} ms`);
}

/**
 * The 503 of a bounded call (OutgoingCall.bounded) that `service` took but did not answer before the
 * request's deadline: worded without "<name> service", so that it does not blame a service that was
 * up (the 503 of a request that waited in a restarted service's queue, say, names no one else).
 */
function deadlineSpentError(service: string, timeoutMs: number): ServiceUnavailableError {
  return new ServiceUnavailableError(
    `out of time: the request's deadline passed during a call to the ${service}, ${timeoutMs} ms after it was made`,
  );
}

/**
 * The 503 of a call that got no answer by its deadline: deadlineSpentError when the call was bounded
 * by the request's deadline and the service took it (it was up), timedOutError otherwise.
 */
export function callTimedOut(
  { service, timeoutMs, bounded }: Pick<OutgoingCall, 'service' | 'timeoutMs' | 'bounded'>,
  taken: boolean,
): ServiceUnavailableError {
  return bounded === true && taken
    ? deadlineSpentError(service, timeoutMs)
    : timedOutError(service, timeoutMs);
}

/** The 503 of a call that could not be sent or whose answer is unusable. */
export function unavailableError(service: string, cause?: unknown): ServiceUnavailableError {
  return new ServiceUnavailableError(`${service} service is unavailable`, { cause });
}
