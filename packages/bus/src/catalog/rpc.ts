import {
  BalanceResponse,
  ClientType,
  CrtInput,
  DescribeCapabilityResponse,
  IdempotencyKey,
  ListCapabilitiesQuery,
  ListCapabilitiesResponse,
  Quote,
  RunRecord,
  Slug,
  UsdAmount,
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

/**
 * `orchestrator.startCrtRun`: records a crt run (or finds the one an Idempotency-Key already names)
 * and queues it; answers as soon as the run is durable and queued, not when it finishes (the
 * gateway waits for `run.finished`). `input` is the parsed CrtInput (apex lowercased, defaults set).
 */
export const StartCrtRunRequest = z.object({
  client_id: Uuid,
  input: CrtInput,
  quote_id: Uuid.optional(),
  client_type: ClientType,
  idempotency_key: IdempotencyKey.optional(),
});
export const StartRunResponse = z.object({
  /** True when the Idempotency-Key named an existing run with the same request: nothing new was done. */
  replay: z.boolean(),
  run: RunRecord,
  quote: Quote.nullable(),
});
export type StartRunResponse = z.infer<typeof StartRunResponse>;

/**
 * `wallet.issueQuote`: stores a quote with the price the caller computed (crt: zero, spec §1.7) and
 * the wallet's clearance. Idempotent on `quote_id` for the same client; a quote_id held by another
 * client is 409.
 */
export const IssueQuoteRequest = z.object({
  quote_id: Uuid,
  client_id: Uuid,
  slug: Slug,
  price_usd: UsdAmount,
  /** SHA-256 (hex) of the canonical input the quote prices (spec §4 rule 1: run sends the same input). */
  input_hash: z.string().regex(/^[0-9a-f]{64}$/),
});

export const rpcCatalog = {
  registry: {
    ping,
    search: { request: ListCapabilitiesQuery, response: ListCapabilitiesResponse },
    describe: { request: z.object({ slug: Slug }), response: DescribeCapabilityResponse },
  },
  wallet: {
    ping,
    balance: { request: z.object({ client_id: Uuid }), response: BalanceResponse },
    issueQuote: { request: IssueQuoteRequest, response: Quote },
  },
  orchestrator: {
    ping,
    startCrtRun: { request: StartCrtRunRequest, response: StartRunResponse },
    /** The run if `client_id` owns it; otherwise 404, the same as for a run that does not exist. */
    getRun: { request: z.object({ client_id: Uuid, run_id: Uuid }), response: RunRecord },
  },
  // Filled from later issues; listed now so launchers and health probes can ping them.
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
