import { randomUUID } from 'node:crypto';
import { AppError, formatZodError, InternalError, ServiceUnavailableError } from '@svc/errors';
import type { z } from 'zod';
import { type Bus, busInternals } from '../bus';
import { type BusCatalog, catalogEntry, type RpcMethods, type RpcServiceOf } from '../catalog';
import { rpcQueueName, rpcRequestListKey } from '../names';
import { createErrorLogLimiter } from '../redis';
import { safeParseWith } from '../schema';
import { sealingContext } from '../sealing';
import { decodeReply } from './envelope';
import { type CallOutcome, type ReplyRouter, replyRouter } from './replies';
import { pushRequest } from './requests';
import type { MethodName } from './types';
import type { RequestMessage, SealedRequest } from './wire';

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
 * Typed request/reply over Redis itself: the request is LPUSHed on the service's list
 * (`<prefix>:rpc.<service>`), a responder pops it (server.ts) and PUBLISHes the reply on this bus's
 * reply channel (replies.ts), where it is matched to the waiting call by id. One round trip to Redis
 * per side and no per-call state left in Redis (BullMQ's job hash, events stream and locks cost the
 * old transport ~5× the commands).
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
  const listKey = rpcRequestListKey(bus.prefix, service);
  const unavailable = (cause?: unknown) =>
    new ServiceUnavailableError(`${service} service is unavailable`, { cause });
  const timedOut = () =>
    new ServiceUnavailableError(`${service} service did not answer within ${timeoutMs} ms`);

  // An outage fails every call: one line per window (with a count), not one per call.
  const outageLog = createErrorLogLimiter();
  const warnOutage = (fields: Record<string, unknown>, message: string) => {
    const verdict = outageLog.record();
    if (verdict.log) internals.logger.warn({ ...fields, suppressed: verdict.suppressed }, message);
  };

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
      const id = randomUUID();

      let router: ReplyRouter;
      try {
        router = replyRouter(internals);
      } catch (err) {
        // The bus is closed: the same 503 as during an outage.
        throw unavailable(err);
      }

      let text: string;
      try {
        // Sealed: requests carry client input (quote, start run). Sealing is where the request is
        // encoded (JSON.stringify): a request that cannot be (RangeError past ~4,000 levels of
        // nesting, TypeError for a BigInt or a cycle) is the caller's input or our bug, not an
        // outage: a 503 with Retry-After would invite retrying it forever (issue 13 finding 3).
        const inner: SealedRequest = { id, request: parsed.data, deadline, reply_to: router.channel };
        const message: RequestMessage = {
          id,
          method,
          deadline,
          reply_to: router.channel,
          request: internals.sealer.seal(inner, sealingContext.rpcRequest(bus.prefix, queueName, method)),
        };
        text = JSON.stringify(message);
      } catch (err) {
        throw new InternalError(`could not encode the ${service}.${method} request`, { cause: err });
      }

      let outcome: Promise<CallOutcome> | undefined;
      try {
        // Fails at once while Redis is known down (no offline queue): 503 fast, not at the deadline.
        await internals.readyProducer(Math.max(1, deadline - Date.now()));
        // The reply channel must be subscribed before the request can be answered.
        if (!(await router.ready(Math.max(1, deadline - Date.now())))) {
          throw new Error('the reply channel is not subscribed (Redis unreachable)');
        }
        outcome = router.expect(id, deadline);
        await pushRequest(internals, listKey, text, timeoutMs);
      } catch (err) {
        router.forget(id);
        warnOutage({ err: errorMessage(err), service, method }, 'rpc: could not send request');
        throw unavailable(err);
      }

      const result = await outcome;
      if (result.kind === 'timeout') throw timedOut();
      if (result.kind === 'lost') {
        warnOutage({ service, method, err: result.reason }, 'rpc: reply lost');
        throw unavailable(new Error(result.reason));
      }
      const decoded = decodeReply(openReply(result.reply, method, id));
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
  function openReply(reply: unknown, method: string, id: string): unknown {
    try {
      return internals.sealer.open(reply, sealingContext.rpcReply(bus.prefix, queueName, method, id));
    } catch (err) {
      internals.logger.error({ service, method, err: errorMessage(err) }, 'rpc: reply does not open');
      return undefined;
    }
  }
}

function errorMessage(err: unknown): string {
  if (err instanceof AppError) return `${err.status} ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
