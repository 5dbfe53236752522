import {
  AppError,
  BadRequestError,
  formatZodError,
  InternalError,
  ServiceUnavailableError,
  storeUnavailableError,
} from '@svc/errors';
import type { Logger } from '@svc/log';
import { type Job, Worker } from 'bullmq';
import { z } from 'zod';
import { type Bus, busInternals, type ConsumerHandle } from '../bus';
import {
  type BusCatalog,
  catalogEntry,
  type PingAnswer,
  type RpcMethods,
  type RpcServiceOf,
} from '../catalog';
import { rpcQueueName } from '../names';
import { safeParseWith } from '../schema';
import { type SealedValue, sealingContext } from '../sealing';
import { errorReply, okReply, type RpcReply } from './envelope';
import type { HandledMethodName, RpcContext, RpcHandlers } from './types';

export interface ServeRpcOptions {
  /** Jobs handled at once by this process. Default 32: handlers are I/O-bound (database, Redis). */
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

/** Job data as it arrives: never trusted (any process with access to Redis can add jobs). */
const RpcJobDataSchema = z.object({ request: z.unknown(), deadline: z.number() });

const startedAt = Date.now();

/**
 * Answers `rpc.<service>` with `handlers` (plus `ping`). Every job completes with an envelope
 * (`{ok: true, data}` or `{ok: false, error}`), so domain errors reach the caller as values and the
 * queue never retries them; a handler that throws something other than an AppError becomes a 500
 * "internal error" (logged here, hidden from the caller). Requests past their deadline are dropped
 * unrun: their caller has answered 503 already.
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

  const isHandled = (name: string): name is HandledMethodName<Methods> =>
    name !== 'ping' && Object.hasOwn(handlers, name) && Object.hasOwn(methods, name);

  const queueName = rpcQueueName(service);
  const sealer = internals.sealer;
  // Replies are sealed too: they carry client data (runs with their input and result, receipts) and
  // stay in the job hash and the queue's events stream after the caller read them.
  const processJob = async (job: Job): Promise<SealedValue> =>
    sealer.seal(await answer(job), sealingContext.rpcReply(bus.prefix, queueName, job.name, job.id ?? ''));

  const answer = async (job: Job): Promise<RpcReply> => {
    let opened: unknown;
    try {
      opened = sealer.open(job.data, sealingContext.rpcRequest(bus.prefix, queueName, job.name));
    } catch (err) {
      return errorReply(new BadRequestError(`RPC job does not open: ${errorText(err)}`));
    }
    const data = RpcJobDataSchema.safeParse(opened);
    if (!data.success)
      return errorReply(new BadRequestError(`malformed RPC job: ${formatZodError(data.error)}`));
    const { request, deadline } = data.data;
    if (Date.now() > deadline) {
      logger.debug(
        { method: job.name, late_ms: Date.now() - deadline },
        'rpc: dropped request past its deadline',
      );
      return errorReply(new ServiceUnavailableError('request expired before it was processed'));
    }
    if (job.name === 'ping') {
      const pong: PingAnswer = { service, pid: process.pid, uptime_s: (Date.now() - startedAt) / 1000 };
      return okReply(pong);
    }
    if (!isHandled(job.name))
      return errorReply(new BadRequestError(`unknown RPC method ${service}.${job.name}`));
    const context: RpcContext = { deadline, requestId: job.id ?? '' };
    return runMethod(methods, handlers, job.name, request, context, logger, service);
  };

  const worker = new Worker(queueName, processJob, {
    connection: internals.blockingConnection(),
    prefix: internals.prefix,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    name: `${service}:${process.pid}`,
  });
  return internals.ownWorker(worker, `rpc worker ${service}`, closeTimeoutMs, logger);
}

async function runMethod<Methods extends RpcMethods, M extends HandledMethodName<Methods>>(
  methods: Methods,
  handlers: RpcHandlers<Methods>,
  method: M,
  raw: unknown,
  context: RpcContext,
  logger: Logger,
  /** The answering service, named in a 503 when its store is unreachable. */
  service: string,
): Promise<RpcReply> {
  const definition = methods[method];
  if (!definition) return errorReply(new BadRequestError(`unknown RPC method ${method}`));
  const request = safeParseWith<Methods[M]['request']>(definition.request, raw);
  if (!request.success) return errorReply(new BadRequestError(formatZodError(request.error)));
  try {
    const handler = handlers[method];
    const result = await handler(request.data, context);
    const response = safeParseWith<Methods[M]['response']>(definition.response, result);
    if (response.success) return okReply(response.data);
    logger.error(
      { method, err: formatZodError(response.error) },
      'rpc: handler answer does not match the response schema',
    );
  } catch (err) {
    if (err instanceof AppError) return errorReply(err);
    // PostgreSQL or Redis unreachable: 503 naming the store, so the caller answers 503 + Retry-After
    // (decisions D1) rather than 500; logged without the driver's stack (one line per request).
    const unavailable = storeUnavailableError(err, service);
    if (unavailable !== undefined) {
      logger.warn({ method, err: errorText(err) }, `rpc: ${unavailable.message}`);
      return errorReply(unavailable);
    }
    logger.error({ method, err }, 'rpc: handler failed');
  }
  return errorReply(new InternalError('internal error'));
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
