import { randomUUID } from 'node:crypto';
import { AppError, InternalError } from '@svc/errors';
import type { Redis } from 'ioredis';
import { type Bus, busInternals } from '../bus';
import { rpcQueueName, rpcRequestListKey } from '../names';
import { createErrorLogLimiter } from '../redis';
import { sealingContext } from '../sealing';
import { decodeReply } from './envelope';
import { type CallOutcome, type ReplyRouter, replyRouter } from './replies';
import { pushRequest } from './requests';
import { callTimedOut, type OutgoingCall, type RpcTransport, unavailableError } from './transport';
import type { RequestMessage, SealedRequest } from './wire';

const transports = new WeakMap<Bus, RpcTransport>();

/**
 * Request/reply over Redis itself: the request is LPUSHed on the service's list
 * (`<prefix>:rpc.<service>`), a responder pops it (server.ts) and PUBLISHes the reply on this bus's
 * reply channel (replies.ts), where it is matched to the waiting call by id. One round trip to Redis
 * per side and no per-call state left in Redis (BullMQ's job hash, events stream and locks cost the
 * old transport ~5× the commands). One per bus: every client made on it shares its outage logs.
 */
export function redisTransport(bus: Bus): RpcTransport {
  let transport = transports.get(bus);
  if (transport === undefined) {
    transport = createRedisTransport(bus);
    transports.set(bus, transport);
  }
  return transport;
}

function createRedisTransport(bus: Bus): RpcTransport {
  const internals = busInternals(bus);
  // An outage fails every call: one line per window and service (with a count), not one per call.
  const outageLogs = new Map<string, ReturnType<typeof createErrorLogLimiter>>();
  const warnOutage = (fields: { service: string } & Record<string, unknown>, message: string) => {
    let limiter = outageLogs.get(fields.service);
    if (limiter === undefined) {
      limiter = createErrorLogLimiter();
      outageLogs.set(fields.service, limiter);
    }
    const verdict = limiter.record();
    if (verdict.log) internals.logger.warn({ ...fields, suppressed: verdict.suppressed }, message);
  };

  /** The reply envelope, opened; undefined when it does not open (then treated as malformed). */
  const openReply = (reply: unknown, service: string, method: string, id: string): unknown => {
    try {
      return internals.sealer.open(
        reply,
        sealingContext.rpcReply(bus.prefix, rpcQueueName(service), method, id),
      );
    } catch (err) {
      internals.logger.error({ service, method, err: errorMessage(err) }, 'rpc: reply does not open');
      return undefined;
    }
  };

  return {
    logger: internals.logger,
    async send(call: OutgoingCall): Promise<unknown> {
      const { service, method, request, timeoutMs, bounded } = call;
      const deadline = Date.now() + timeoutMs;
      const id = randomUUID();

      let router: ReplyRouter;
      try {
        router = replyRouter(internals);
      } catch (err) {
        // The bus is closed: the same 503 as during an outage.
        throw unavailableError(service, err);
      }

      let text: string;
      try {
        // Sealed: requests carry client input (quote, start run). Sealing is where the request is
        // encoded (JSON.stringify): a request that cannot be (RangeError past ~4,000 levels of
        // nesting, TypeError for a BigInt or a cycle) is the caller's input or our bug, not an
        // outage: a 503 with Retry-After would invite retrying it forever (issue 13 finding 3).
        const inner: SealedRequest = { id, request, deadline, reply_to: router.channel };
        const message: RequestMessage = {
          id,
          method,
          deadline,
          reply_to: router.channel,
          request: internals.sealer.seal(
            inner,
            sealingContext.rpcRequest(bus.prefix, rpcQueueName(service), method),
          ),
        };
        text = JSON.stringify(message);
      } catch (err) {
        throw new InternalError(`could not encode the ${service}.${method} request`, { cause: err });
      }

      const listKey = rpcRequestListKey(bus.prefix, service);
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
        throw unavailableError(service, err);
      }

      const result = await outcome;
      if (result.kind === 'timeout') {
        // A bounded call's request still in the list was never taken (the service is down or has no
        // free slot): withdrawn, and the service named. One it took: the deadline's fault (deadline.ts).
        throw callTimedOut(call, bounded === true && !(await withdrawn(internals.redis, listKey, text)));
      }
      if (result.kind === 'lost') {
        warnOutage({ service, method, err: result.reason }, 'rpc: reply lost');
        throw unavailableError(service, new Error(result.reason));
      }
      const decoded = decodeReply(openReply(result.reply, service, method, id));
      if (!decoded) {
        internals.logger.error({ service, method }, 'rpc: malformed reply envelope');
        throw unavailableError(service);
      }
      if (!decoded.ok) throw decoded.error;
      return decoded.data;
    },
  };
}

/** Removes a request nobody took from its list; true when it was there (also when Redis cannot say). */
async function withdrawn(producer: Redis, listKey: string, text: string): Promise<boolean> {
  try {
    return (await producer.lrem(listKey, 1, text)) > 0;
  } catch {
    return true;
  }
}

function errorMessage(err: unknown): string {
  if (err instanceof AppError) return `${err.status} ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
