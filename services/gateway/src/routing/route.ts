import type {
  ApiOperation,
  OperationAnswer,
  OperationBody,
  OperationHeaders,
  OperationPathParams,
  OperationQuery,
} from '@svc/contracts';
import type { Request } from 'express';
import type { AuthContext, GatewayHandler, GatewayResponse } from '../locals';

/**
 * One REST endpoint is its operation in the contracts plus a handler here: `route(operation,
 * handler)`. Everything else is derived from the operation where the route is mounted
 * (serve-routes.ts): who may call it (public, an API key with its scopes, an upload token), the
 * rate-limit budget, `Cache-Control: no-store` for every credentialed answer, the JSON body and its
 * limit, the parsing of path, query, headers and body with their schemas (422 naming the field,
 * decisions D2), the contract headers, 405 with `Allow`, and the error answers. The handler gets
 * that input typed by the operation's schemas and returns one of the answers the operation declares.
 */

/** Who calls: the verified key of an operation that takes one; nobody known otherwise. */
export type CallerOf<Op extends ApiOperation> = Op['auth'] extends { kind: 'key' } ? AuthContext : undefined;

/** A request as the operation declares it, parsed. */
export interface RouteInput<Op extends ApiOperation> {
  readonly params: OperationPathParams<Op>;
  readonly query: OperationQuery<Op>;
  readonly headers: OperationHeaders<Op>;
  readonly body: OperationBody<Op>;
  readonly auth: CallerOf<Op>;
}

/** What a handler may need of the request beyond its input. */
export interface RouteContext {
  /** The request's X-Request-Id as the gateway settled it (the vault's audit lines carry it). */
  readonly requestId: string;
  /** The base of the links an answer hands out (public-base-url.ts: 400 for a Host that is none). */
  baseUrl(): string;
  /** Fires when the client leaves before the answer is complete: stop waiting on its behalf. */
  clientGone(): AbortSignal;
}

/** A handler that writes the answer itself (raw bytes either way, MCP's own framing) gets the exchange. */
export interface RawRouteContext extends RouteContext {
  readonly req: Request;
  readonly res: GatewayResponse;
}

export type RouteHandler<Op extends ApiOperation> = (
  input: RouteInput<Op>,
  context: RouteContext,
) => OperationAnswer<Op> | Promise<OperationAnswer<Op>>;

/** Never gets a body: a raw route reads it itself, as a stream, if it takes one. */
export type RawRouteHandler<Op extends ApiOperation> = (
  input: Omit<RouteInput<Op>, 'body'>,
  context: RawRouteContext,
) => Promise<void>;

/** What a route adds to its operation: words and checks that are the gateway's, not the contract's. */
export interface RouteOptions {
  /** The realm of the 401/403 challenge; default the API's (MCP names its own, decisions M2). */
  readonly realm?: string;
  /** Checks before the key, after no-store: the MCP Host/Origin guard (403 before anything else). */
  readonly before?: readonly GatewayHandler[];
  /** Words after `body: must be a JSON object (<component>)`, e.g. `with "input" required`. */
  readonly bodyNote?: string;
  /** Path parameters that do not parse: this error instead of the 422 (describe: decisions G1's 404). */
  readonly invalidPath?: (params: Readonly<Record<string, string>>) => Error;
  /**
   * Query errors name the fields bare (`limit: …`, not `query.limit: …`), the way the service behind
   * the route words its own 422s about the same parameters (the run list's cursor).
   */
  readonly bareQueryErrors?: true;
}

/**
 * The request as parsed for a route, before it is typed by its operation: values parsed by the
 * operation's own schemas (route-input.ts).
 */
export interface ParsedInput {
  readonly params: unknown;
  readonly query: unknown;
  readonly headers: unknown;
  readonly body: unknown;
  readonly auth: AuthContext | undefined;
}

/** A JSON answer as it is sent. */
export interface SentAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A mounted endpoint, its handler's types erased: what the route table and the dispatcher need.
 * `json`: the gateway parses a JSON body (if the operation declares one) and sends the answer;
 * `raw`: the handler reads the body and writes the answer itself.
 */
export type Route<Op extends ApiOperation = ApiOperation> =
  | {
      readonly kind: 'json';
      readonly operation: Op;
      readonly options: RouteOptions;
      readonly handle: (input: ParsedInput, context: RouteContext) => Promise<SentAnswer>;
    }
  | {
      readonly kind: 'raw';
      readonly operation: Op;
      readonly options: RouteOptions;
      readonly handle: (input: ParsedInput, context: RawRouteContext) => Promise<void>;
    };

/**
 * The input typed by its operation. The values were parsed with exactly the schemas these types
 * are inferred from (route-input.ts), which the compiler cannot follow through a generic operation:
 * this is the one place that says so.
 */
function typedInput<Op extends ApiOperation>(input: ParsedInput): RouteInput<Op> {
  return input as RouteInput<Op>;
}

/** Mounts `operation` with a handler of JSON answers. */
export function route<const Op extends ApiOperation>(
  operation: Op,
  handler: NoInfer<RouteHandler<Op>>,
  options: RouteOptions = {},
): Route<Op> {
  return {
    kind: 'json',
    operation,
    options,
    handle: async (input, context) => handler(typedInput<Op>(input), context),
  };
}

/**
 * Mounts `operation` with a handler that writes the answer itself: a download streamed through, an
 * upload's bytes streamed on, a document served as fixed bytes, MCP's JSON-RPC or event stream.
 */
export function rawRoute<const Op extends ApiOperation>(
  operation: Op,
  handler: NoInfer<RawRouteHandler<Op>>,
  options: RouteOptions = {},
): Route<Op> {
  return {
    kind: 'raw',
    operation,
    options,
    handle: (input, context) => handler(typedInput<Op>(input), context),
  };
}
