import {
  BalanceResponse,
  DescribeCapabilityResponse,
  ListCapabilitiesQuery,
  ListCapabilitiesResponse,
  Slug,
  Uuid,
} from '@svc/contracts';
import { z } from 'zod';

/**
 * Every RPC method, keyed by service then method: `rpc.<service>` queues carry jobs named after the
 * method. Request and response schemas are the wire contract between a gateway and a service that
 * may be deployed at another version: evolve them additively (new fields optional), never rename.
 */

/** One method: what the caller sends and what the service answers (`data` of an ok envelope). */
export interface RpcMethod<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  request: Req;
  response: Res;
}

/** `ping`, answered by `serveRpc` itself for every service: proves a responder is consuming the queue. */
export const PingRequest = z.object({});
export const PingResponse = z.object({
  service: z.string(),
  pid: z.number().int(),
  /** s: process uptime of the answering replica. */
  uptime_s: z.number().nonnegative(),
});
export type PingResponse = z.infer<typeof PingResponse>;

const ping = { request: PingRequest, response: PingResponse } satisfies RpcMethod;

export const rpcCatalog = {
  registry: {
    ping,
    search: { request: ListCapabilitiesQuery, response: ListCapabilitiesResponse },
    describe: { request: z.object({ slug: Slug }), response: DescribeCapabilityResponse },
  },
  wallet: {
    ping,
    balance: { request: z.object({ client_id: Uuid }), response: BalanceResponse },
  },
  // Filled from later issues; listed now so launchers and health probes can ping them.
  orchestrator: { ping },
  uploads: { ping },
  vault: { ping },
} as const satisfies Record<string, Record<string, RpcMethod> & { ping: RpcMethod }>;

export type RpcCatalog = typeof rpcCatalog;
/** A service that answers RPC (the gateway only calls). */
export type RpcService = keyof RpcCatalog;
export type RpcMethodName<S extends RpcService> = keyof RpcCatalog[S] & string;

type MethodOf<S extends RpcService, M extends RpcMethodName<S>> = RpcCatalog[S][M] extends RpcMethod
  ? RpcCatalog[S][M]
  : never;

/** What a caller passes (schema input: defaults may be omitted). */
export type RpcRequestInput<S extends RpcService, M extends RpcMethodName<S>> = z.input<
  MethodOf<S, M>['request']
>;
/** What a handler receives (parsed: defaults applied). */
export type RpcRequest<S extends RpcService, M extends RpcMethodName<S>> = z.output<
  MethodOf<S, M>['request']
>;
/** What a handler returns (schema input: the responder parses it before sending). */
export type RpcResponseInput<S extends RpcService, M extends RpcMethodName<S>> = z.input<
  MethodOf<S, M>['response']
>;
/** What a caller gets back (parsed). */
export type RpcResponse<S extends RpcService, M extends RpcMethodName<S>> = z.output<
  MethodOf<S, M>['response']
>;

export function isRpcService(name: string): name is RpcService {
  return Object.hasOwn(rpcCatalog, name);
}

/** Every service that answers RPC, e.g. for a launcher that pings them all. */
export const RPC_SERVICES: readonly RpcService[] = Object.keys(rpcCatalog).filter(isRpcService);
