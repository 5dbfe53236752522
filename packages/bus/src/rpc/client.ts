import { AppError, formatZodError, InternalError, ServiceUnavailableError } from '@svc/errors';
import type { Job, QueueEvents } from 'bullmq';
import type { z } from 'zod';
import { type Bus, busInternals } from '../bus';
import { type BusCatalog, catalogEntry, type RpcMethods, type RpcServiceOf } from '../catalog';
import { rpcQueueName } from '../names';
import { safeParseWith } from '../schema';
import { sealingContext } from '../sealing';
import { decodeReply } from './envelope';
import { RPC_JOB_OPTIONS } from './job-options';
import type { MethodName, RpcJobData } from './types';

/** ms: timer rounding tolerated when telling a timeout from another failure of the wait. */
const TIMER_SLACK_MS = 5;

export interface RpcClientOptions {
  /** ms: how long a call waits for the answer (queueing included) before it fails with 503. */
  timeoutMs: number;
}

export interface RpcClient<Methods extends RpcMethods> {
  readonly service: string;
  /**
   * Sends `request` to the service and returns its parsed answer. Throws: TypeError for a request
   * that does not match the schema (a programming error: callers validate user input first); the
   * remote AppError (same class and status) for a domain error; InternalError (500) for a request
   * that cannot be encoded (too deep, a cycle), never 503; ServiceUnavailableError (503) when
   * the bus is down, no responder answers within `timeoutMs`, or the answer is malformed.
   */
  call<M extends MethodName<Methods>>(
    method: M,
    request: z.input<Methods[M]['request']>,
  ): Promise<z.output<Methods[M]['response']>>;
}

/**
 * Typed request/reply over the `rpc.<service>` BullMQ queue. The client shares, per process and
 * service, one Queue (on the bus producer connection) and one QueueEvents: creating either per
 * call would add connections and round trips to every request.
 */
export function createRpcClient<C extends BusCatalog, S extends RpcServiceOf<C>>(
  bus: Bus<C>,
  service: S,
  options: RpcClientOptions,
): RpcClient<C['rpc'][S]> {
  if (!Object.hasOwn(bus.catalog.rpc, service)) throw new TypeError(`unknown RPC service ${service}`);
  return createClient<C['rpc'][S]>(
    bus,
    service,
    catalogEntry<C['rpc'], S>(bus.catalog.rpc, service),
    options,
  );
}

function createClient<Methods extends RpcMethods>(
  bus: Bus,
  service: string,
  methods: Methods,
  { timeoutMs }: RpcClientOptions,
): RpcClient<Methods> {
  const internals = busInternals(bus);
  const queueName = rpcQueueName(service);
  const unavailable = (cause?: unknown) =>
    new ServiceUnavailableError(`${service} service is unavailable`, { cause });
  const timedOut = () =>
    new ServiceUnavailableError(`${service} service did not answer within ${timeoutMs} ms`);

  return {
    service,
    async call(method, request) {
      const definition = methods[method];
      if (!definition) throw new TypeError(`unknown RPC method ${service}.${method}`);
      const parsed = safeParseWith<Methods[typeof method]['request']>(definition.request, request);
      if (!parsed.success) {
        throw new TypeError(`invalid ${service}.${method} request: ${formatZodError(parsed.error)}`);
      }
      const deadline = Date.now() + timeoutMs;
      const envelope: RpcJobData = { request: parsed.data, deadline };

      let job: Job;
      let waitFor: QueueEvents;
      try {
        // Sealed: requests carry client input (quote, start run) and stay in Redis while retained.
        // Sealing is where the request is encoded (JSON.stringify), hence inside this try.
        const data = internals.sealer.seal(
          envelope,
          sealingContext.rpcRequest(bus.prefix, queueName, method),
        );
        await internals.readyProducer(timeoutMs);
        waitFor = await internals.queueEvents(queueName);
        job = await internals.queue(queueName).add(method, data, RPC_JOB_OPTIONS);
      } catch (err) {
        // A request BullMQ cannot encode (JSON.stringify: RangeError past ~4,000 levels of nesting,
        // TypeError for a BigInt or a cycle) is the caller's input or our bug, not an outage: a 503
        // with Retry-After would invite retrying it forever (issue 13 finding 3). 500, logged.
        if (err instanceof RangeError || err instanceof TypeError) {
          throw new InternalError(`could not encode the ${service}.${method} request`, { cause: err });
        }
        internals.logger.warn({ err: errorMessage(err), service, method }, 'rpc: could not send request');
        throw unavailable(err);
      }

      let reply: unknown;
      try {
        reply = await job.waitUntilFinished(waitFor, Math.max(1, deadline - Date.now()));
      } catch (err) {
        // Timed out, or the job failed inside BullMQ (e.g. stalled twice): either way the caller gets
        // 503, and the request must not run late; the responder also drops it past its deadline.
        abandon(job);
        // BullMQ's own ttl timer fired (allow a few ms of timer rounding).
        if (Date.now() >= deadline - TIMER_SLACK_MS) throw timedOut();
        internals.logger.warn(
          { err: errorMessage(err), service, method },
          'rpc: request failed in the queue',
        );
        throw unavailable(err);
      }

      const decoded = decodeReply(openReply(reply, method, job.id ?? ''));
      if (!decoded) {
        internals.logger.error({ service, method }, 'rpc: malformed reply envelope');
        throw unavailable();
      }
      if (!decoded.ok) throw decoded.error;
      const answer = safeParseWith<Methods[typeof method]['response']>(definition.response, decoded.data);
      if (!answer.success) {
        internals.logger.error(
          { service, method, err: formatZodError(answer.error) },
          'rpc: reply does not match the response schema',
        );
        throw unavailable();
      }
      return answer.data;
    },
  };

  /** The reply envelope, opened; undefined when it does not open (then treated as malformed). */
  function openReply(reply: unknown, method: string, jobId: string): unknown {
    try {
      return internals.sealer.open(reply, sealingContext.rpcReply(bus.prefix, queueName, method, jobId));
    } catch (err) {
      internals.logger.error({ service, method, err: errorMessage(err) }, 'rpc: reply does not open');
      return undefined;
    }
  }
}

/** Best effort: a waiting job is removed; an active one cannot be (it is locked) and will be dropped. */
function abandon(job: Job): void {
  job.remove().catch(() => {});
}

function errorMessage(err: unknown): string {
  if (err instanceof AppError) return `${err.status} ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
