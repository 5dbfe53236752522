import { BadRequestError, formatZodError, InternalError } from '@svc/errors';
import { type Bus, busInternals, type ConsumerHandle } from '../bus';
import { type BusCatalog, catalogEntry, type RpcMethods, type RpcServiceOf } from '../catalog';
import { closeWithin, once } from '../closable';
import { rpcQueueName, rpcRequestListKey } from '../names';
import { createRedis } from '../redis';
import { sealingContext } from '../sealing';
import { answerRequest, errorText, type Responder } from './answer';
import { errorReply, type RpcReply } from './envelope';
import { createReplySender } from './reply-sender';
import { startRequestLoop } from './request-loop';
import type { RpcContext, RpcHandlers } from './types';
import { parseRequestMessage, type ReplyMessage, type SealedRequest, SealedRequestSchema } from './wire';

export interface ServeRpcOptions {
  /** Requests handled at once by this process. Default 32: handlers are I/O-bound (database, Redis). */
  concurrency?: number;
  /** ms: how long `close()` waits for running handlers before dropping the connections. Default 10_000. */
  closeTimeoutMs?: number;
}

export type RpcServer = ConsumerHandle;

/**
 * The handlers a service passes to `serveRpc`: one per catalog method except `ping`
 * (e.g. `ServiceHandlers<MessageCatalog, 'wallet'>`).
 */
export type ServiceHandlers<C extends BusCatalog, S extends RpcServiceOf<C>> = RpcHandlers<C['rpc'][S]>;

const DEFAULT_CONCURRENCY = 32;
const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;

/**
 * Answers the requests on `<prefix>:rpc.<service>` with `handlers` (plus `ping`). Every request is
 * answered with an envelope (`{ok: true, data}` or `{ok: false, error}`) published on its caller's
 * reply channel, so domain errors reach the caller as values; a handler that throws something other
 * than an AppError becomes a 500 "internal error" (logged here, hidden from the caller). Requests
 * past their deadline are dropped unrun: their caller has answered 503 already.
 */
export function serveRpc<C extends BusCatalog, S extends RpcServiceOf<C>>(
  bus: Bus<C>,
  service: S,
  // NoInfer: the catalog is inferred from `bus` alone, so inline handlers' literals keep their types.
  handlers: NoInfer<ServiceHandlers<C, S>>,
  options: ServeRpcOptions = {},
): RpcServer {
  if (!Object.hasOwn(bus.catalog.rpc, service)) throw new TypeError(`unknown RPC service ${service}`);
  return serve<C['rpc'][S]>(
    bus,
    service,
    catalogEntry<C['rpc'], S>(bus.catalog.rpc, service),
    handlers,
    options,
  );
}

function serve<Methods extends RpcMethods>(
  bus: Bus,
  service: string,
  methods: Methods,
  handlers: RpcHandlers<Methods>,
  options: ServeRpcOptions,
): RpcServer {
  const internals = busInternals(bus);
  const logger = internals.logger.child({ rpc: service });
  const closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
  const queueName = rpcQueueName(service);
  const sealer = internals.sealer;

  const responder: Responder<Methods> = { service, methods, handlers, logger };

  /** Runs one popped request and publishes its reply; never rejects. */
  const handle = async (raw: string): Promise<void> => {
    const message = parseRequestMessage(raw);
    if (message === undefined) {
      // Nothing to answer to: not one of our requests (or from an incompatible version).
      logger.warn('rpc: dropped an entry that is not a request');
      return;
    }
    // The plain deadline first: a late request is dropped without the cost of opening it.
    if (Date.now() > message.deadline) return dropLate(message.method, message.deadline);
    const opened = openRequest(message.request, message.method, message);
    if (!opened.ok)
      return publish(
        message.reply_to,
        message.id,
        message.method,
        message.deadline,
        errorReply(opened.error),
      );
    const { id, request, deadline, reply_to } = opened.request;
    if (Date.now() > deadline) return dropLate(message.method, deadline);
    const context: RpcContext = { deadline, requestId: id };
    const reply = await answerRequest(responder, message.method, request, context);
    await publish(reply_to, id, message.method, deadline, reply);
  };

  const dropLate = (method: string, deadline: number) => {
    logger.debug({ method, late_ms: Date.now() - deadline }, 'rpc: dropped request past its deadline');
  };

  type Opened = { ok: true; request: SealedRequest } | { ok: false; error: BadRequestError };
  /** The sealed part of a request, checked against its plain routing fields. */
  const openRequest = (sealed: unknown, method: string, plain: { id: string; reply_to: string }): Opened => {
    let opened: unknown;
    try {
      opened = sealer.open(sealed, sealingContext.rpcRequest(bus.prefix, queueName, method));
    } catch (err) {
      return { ok: false, error: new BadRequestError(`RPC request does not open: ${errorText(err)}`) };
    }
    const parsed = SealedRequestSchema.safeParse(opened);
    if (!parsed.success)
      return {
        ok: false,
        error: new BadRequestError(`malformed RPC request: ${formatZodError(parsed.error)}`),
      };
    if (parsed.data.id !== plain.id || parsed.data.reply_to !== plain.reply_to)
      return { ok: false, error: new BadRequestError('malformed RPC request: routing fields altered') };
    return { ok: true, request: parsed.data };
  };

  /**
   * Seals and publishes a reply on the caller's channel. Replies are sealed too: they carry client
   * data (runs with their input and result, receipts), bound to their request id so they cannot be
   * swapped. Lost when Redis is down (the caller then times out with 503): logged (reply-sender.ts).
   */
  const publish = async (
    channel: string,
    id: string,
    method: string,
    deadline: number,
    reply: RpcReply,
  ): Promise<void> => {
    const context = sealingContext.rpcReply(bus.prefix, queueName, method, id);
    let message: ReplyMessage;
    try {
      message = { id, reply: sealer.seal(reply, context) };
    } catch (err) {
      logger.error({ method, err: errorText(err) }, 'rpc: reply cannot be encoded');
      message = { id, reply: sealer.seal(errorReply(new InternalError('internal error')), context) };
    }
    await sendReply(channel, JSON.stringify(message), method, deadline);
  };

  // The producer publishes the replies: connected now, not on the first reply.
  const producer = internals.redis;
  const producerReady = new Promise<void>((resolve) => {
    if (producer.status === 'ready') resolve();
    else producer.once('ready', () => resolve());
  });
  const sendReply = createReplySender(producer, logger);
  const blocking = createRedis(internals.redisUrl, {
    role: 'worker',
    name: `${bus.prefix}:${queueName}`,
    logger: internals.logger,
  });
  const loop = startRequestLoop({
    blocking,
    // The producer as made now: during bus.close() the bus getter refuses, the connection still works.
    control: () => producer,
    listKey: rpcRequestListKey(bus.prefix, service),
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    handle,
    logger,
  });

  const close = once(async () => {
    untrack();
    const inTime = await loop.stop(closeTimeoutMs);
    if (!inTime)
      logger.warn({ timeout_ms: closeTimeoutMs }, `rpc ${service}: handlers still running at close; dropped`);
    await closeWithin(
      () => blocking.quit().then(() => {}),
      internals.closeTimeoutMs,
      () => blocking.disconnect(),
    );
    if (blocking.status !== 'end') blocking.disconnect();
  });
  const untrack = internals.own('consumers', { close });
  return { close, waitUntilReady: async () => void (await Promise.all([loop.ready, producerReady])) };
}
