import { formatZodError } from '@svc/errors';
import type { z } from 'zod';
import type { Bus } from './bus';
import { type BusCatalog, catalogEntry, type RpcMethod, type RpcMethods, type RpcServiceOf } from './catalog';
import { callTimeout, propagateDeadlines } from './rpc/deadline';
import { InMemoryRpc } from './rpc/in-memory-transport';
import { redisTransport } from './rpc/redis-transport';
import type { RpcTransport } from './rpc/transport';
import { unavailableError } from './rpc/transport';
import type { MethodName } from './rpc/types';
import { safeParseWith } from './schema';

/**
 * Typed clients of the RPC services, derived from the catalog a bus carries: one method per catalog
 * method (`client.getRun({ client_id, run_id })`), so a caller's port is a `Pick<>` of a client and
 * a new RPC method needs its catalog entry and its handler, nothing on the calling side.
 */

/** One method as a caller calls it: the schema's input in, the parsed answer out. */
export type MethodClient<Method extends RpcMethod> = (
  request: z.input<Method['request']>,
) => Promise<z.output<Method['response']>>;

/** A client of one service's methods (`ping` included). */
export type MethodsClient<Methods extends RpcMethods> = {
  readonly [M in MethodName<Methods>]: MethodClient<Methods[M]>;
};

/**
 * The client of service `S` of catalog `C`. A port names the methods it uses:
 * `type RunReader = Pick<ServiceClient<PlatformCatalog, 'orchestrator'>, 'getRun' | 'listRuns'>`.
 */
export type ServiceClient<C extends BusCatalog, S extends RpcServiceOf<C>> = MethodsClient<C['rpc'][S]>;

export interface ServiceClientOptions<Methods extends RpcMethods = RpcMethods> {
  /** ms: how long a call waits for the answer (queueing included) before it fails with 503. */
  timeoutMs: number;
  /** ms per method where it differs from `timeoutMs` (a call that reads and writes documents). */
  methodTimeoutsMs?: { readonly [M in MethodName<Methods>]?: number };
}

/** What a client sends through: a bus (Redis, every process) or an in-memory transport (tests). */
export type RpcCarrier<C extends BusCatalog> = Bus<C> | InMemoryRpc<C>;

/**
 * The client of `service`. Each method throws: TypeError for a request that does not match the
 * schema (a programming error: callers validate user input first); the remote AppError (same class
 * and status) for a domain error; InternalError (500) for a request that cannot be encoded (too
 * deep, a cycle), never 503; ServiceUnavailableError (503) when the bus is down, no responder answers
 * within the timeout, or the answer is malformed or does not match the response schema.
 */
export function serviceClient<C extends BusCatalog, S extends RpcServiceOf<C>>(
  via: RpcCarrier<C>,
  service: S,
  options: ServiceClientOptions<C['rpc'][S]>,
): ServiceClient<C, S> {
  if (!Object.hasOwn(via.catalog.rpc, service)) throw new TypeError(`unknown RPC service ${service}`);
  propagateDeadlines();
  const transport = via instanceof InMemoryRpc ? via.transport : redisTransport(via);
  return methodsClient(transport, service, catalogEntry<C['rpc'], S>(via.catalog.rpc, service), options);
}

function methodsClient<Methods extends RpcMethods>(
  transport: RpcTransport,
  service: string,
  methods: Methods,
  { timeoutMs, methodTimeoutsMs = {} }: ServiceClientOptions<Methods>,
): MethodsClient<Methods> {
  const bind = <M extends MethodName<Methods>>(method: M): MethodClient<Methods[M]> => {
    const definition: Methods[M] = methods[method];
    const callTimeoutMs = methodTimeoutsMs[method] ?? timeoutMs;
    return async (request) => {
      const parsed = safeParseWith<Methods[M]['request']>(definition.request, request);
      if (!parsed.success) {
        throw new TypeError(`invalid ${service}.${method} request: ${formatZodError(parsed.error)}`);
      }
      const data = await transport.send({
        service,
        method,
        request: parsed.data,
        ...callTimeout(callTimeoutMs),
      });
      const answer = safeParseWith<Methods[M]['response']>(definition.response, data);
      if (!answer.success) {
        transport.logger.error(
          { service, method, err: formatZodError(answer.error) },
          'rpc: reply does not match the response schema',
        );
        throw unavailableError(service);
      }
      return answer.data;
    };
  };
  const client: Record<string, unknown> = {};
  for (const method of Object.keys(methods)) client[method] = bind(method);
  return client as MethodsClient<Methods>;
}
