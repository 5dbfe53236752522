import { AppError, BadRequestError, formatZodError, InternalError, storeUnavailableError } from '@svc/errors';
import type { Logger } from '@svc/log';
import type { PingAnswer, RpcMethods } from '../catalog';
import { safeParseWith } from '../schema';
import { withRequestDeadline } from './deadline';
import { errorReply, okReply, type RpcReply } from './envelope';
import type { HandledMethodName, RpcContext, RpcHandlers } from './types';

const startedAt = Date.now();

/** What answers one service's requests: its catalog entry, its handlers, where failures are logged. */
export interface Responder<Methods extends RpcMethods> {
  /** The answering service, named in `ping` and in a 503 when its store is unreachable. */
  service: string;
  methods: Methods;
  handlers: RpcHandlers<Methods>;
  logger: Logger;
}

/**
 * The reply to one request as a responder makes it, whatever carried the request (the Redis
 * transport, server.ts; the in-memory one, in-memory-transport.ts): `ping` answered here, an unknown
 * method 400, the request parsed with the method's schema (400), the handler run (its own calls
 * bounded by the request's deadline, deadline.ts), its answer parsed with the response schema (a
 * wrong shape is logged and answered 500), AppErrors kept, an unreachable PostgreSQL or Redis 503,
 * anything else 500 "internal error" (logged here, hidden from the caller).
 */
export function answerRequest<Methods extends RpcMethods>(
  responder: Responder<Methods>,
  method: string,
  raw: unknown,
  context: RpcContext,
): Promise<RpcReply> {
  const { service, methods, handlers } = responder;
  if (method === 'ping') {
    const pong: PingAnswer = { service, pid: process.pid, uptime_s: (Date.now() - startedAt) / 1000 };
    return Promise.resolve(okReply(pong));
  }
  const isHandled = (name: string): name is HandledMethodName<Methods> =>
    Object.hasOwn(handlers, name) && Object.hasOwn(methods, name);
  if (!isHandled(method)) {
    return Promise.resolve(errorReply(new BadRequestError(`unknown RPC method ${service}.${method}`)));
  }
  return runMethod(responder, method, raw, context);
}

async function runMethod<Methods extends RpcMethods, M extends HandledMethodName<Methods>>(
  { service, methods, handlers, logger }: Responder<Methods>,
  method: M,
  raw: unknown,
  context: RpcContext,
): Promise<RpcReply> {
  const definition = methods[method];
  if (!definition) return errorReply(new BadRequestError(`unknown RPC method ${method}`));
  const request = safeParseWith<Methods[M]['request']>(definition.request, raw);
  if (!request.success) return errorReply(new BadRequestError(formatZodError(request.error)));
  try {
    const handler = handlers[method];
    const result = await withRequestDeadline(context.deadline, () => handler(request.data, context));
    const response = safeParseWith<Methods[M]['response']>(definition.response, result);
    if (response.success) return okReply(response.data);
    logger.error(
      { method, err: formatZodError(response.error) },
      'rpc: handler answer does not match the response schema',
    );
  } catch (err) {
    return thrownReply({ service, logger }, method, err);
  }
  return errorReply(new InternalError('internal error'));
}

/**
 * The reply to a handler that threw `err`: an AppError as itself; PostgreSQL or Redis unreachable as
 * a 503 naming the store, so the caller answers 503 + Retry-After (decisions D1) rather than 500,
 * logged without the driver's stack (one line per request); anything else 500, logged here.
 */
export function thrownReply(
  { service, logger }: { service: string; logger: Logger },
  method: string,
  err: unknown,
): RpcReply {
  if (err instanceof AppError) return errorReply(err);
  const unavailable = storeUnavailableError(err, service);
  if (unavailable !== undefined) {
    logger.warn({ method, err: errorText(err) }, `rpc: ${unavailable.message}`);
    return errorReply(unavailable);
  }
  logger.error({ method, err }, 'rpc: handler failed');
  return errorReply(new InternalError('internal error'));
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
