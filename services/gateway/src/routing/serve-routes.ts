import type { ApiOperation } from '@svc/contracts';
import { MethodNotAllowedError } from '@svc/errors';
import { clientGoneSignal } from '@svc/http-kit';
import type { NextFunction, Request } from 'express';
import { authOf, type GatewayHandler, type GatewayResponse } from '../locals';
import { noStore } from '../middleware/no-store';
import { echoPath } from '../middleware/not-found';
import { resolveRequestId } from '../middleware/request-id';
import { requestClassOf } from '../rate-limit/classify';
import type { RouteKit } from '../route-kit';
import { drainBodyForAnswer } from './drain-body';
import type { RawRouteContext, Route, RouteContext, SentAnswer } from './route';
import { decodeParams, parseInput } from './route-input';
import { type RouteMatch, RouteTable } from './route-table';

/**
 * The routes mounted in the app: `match`, first of all middleware, finds the request's operation
 * once (route-table.ts) and leaves it on `res.locals.operation` for the contract headers, the rate
 * limiter and the body pace watch; `serve`, where the routers used to be, runs it. Each route's
 * chain is derived from its operation, in the order the hand-written routes had:
 *   no-store (any credential) → route checks (MCP's Host/Origin) → the key and its scopes, which
 *   spend the per-key budget → the JSON body (415, 413, 400, safe input) → path, query, headers and
 *   body against their schemas (422) → the handler → its answer.
 * An unauthenticated body is never read; a path that serves other methods answers 405 with `Allow`
 * (OPTIONS: 204) before any of it; a path no operation serves falls through to the 404.
 */
export interface Routing {
  readonly match: GatewayHandler;
  readonly serve: GatewayHandler;
}

type Handlers = readonly GatewayHandler[];

/** Runs `chain` as express runs a route's handlers: in order, an error or rejection ends it. */
function runChain(req: Request, res: GatewayResponse, chain: Handlers, done: NextFunction): void {
  let index = 0;
  const next: NextFunction = (err?: unknown) => {
    if (err !== undefined && err !== null) {
      done(err);
      return;
    }
    const handler = chain[index];
    index += 1;
    if (handler === undefined) {
      done();
      return;
    }
    try {
      const result = handler(req, res, next);
      if (result instanceof Promise) result.catch(done);
    } catch (thrown) {
      done(thrown);
    }
  };
  next();
}

function sendAnswer(res: GatewayResponse, answer: SentAnswer): void {
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  res.status(answer.status).json(answer.body);
}

/** An operation whose request body is raw bytes, streamed on by its handler (the upload PUT). */
export function streamsBody(operation: ApiOperation | undefined): boolean {
  return operation?.body !== undefined && 'binary' in operation.body;
}

/** The last step of a route: its input parsed, the handler run, its answer sent. */
function finalStep(route: Route, kit: RouteKit) {
  const { operation, options } = route;
  return async (req: Request, res: GatewayResponse, params: Readonly<Record<string, string>>) => {
    let gone: AbortSignal | undefined;
    const context: RouteContext = {
      requestId: res.locals.requestId ?? resolveRequestId(undefined),
      baseUrl: () => kit.publicBaseUrl(req),
      clientGone: () => {
        gone ??= clientGoneSignal(res);
        return gone;
      },
    };
    const auth = operation.auth.kind === 'key' ? authOf(res) : undefined;
    if (route.kind === 'json') {
      const input = parseInput(operation, req, params, auth, { ...options, withBody: true });
      sendAnswer(res, await route.handle(input, context));
      return;
    }
    const raw: RawRouteContext = { ...context, req, res };
    const handle = () =>
      route.handle(parseInput(operation, req, params, auth, { ...options, withBody: false }), raw);
    if (!streamsBody(operation)) {
      await handle();
      return;
    }
    try {
      await handle();
    } catch (err) {
      // An answer while the client is still sending (a malformed id, an early refusal upstream,
      // 503): read and drop the rest for a bounded time instead of closing at once.
      if (!req.complete) drainBodyForAnswer(req);
      throw err;
    }
  };
}

/** The checks before a route's handler, from its operation (see the file comment). */
function checksOf(route: Route, kit: RouteKit): Handlers {
  const { operation, options } = route;
  const { auth, body } = operation;
  const jsonBody =
    route.kind === 'json' && body !== undefined && 'schema' in body
      ? body.limit === 'document'
        ? kit.documentJsonBody
        : kit.jsonBody
      : [];
  return [
    // Credentialed answers are private to one client and change between requests, errors
    // included (the 401/403 that follows, another client's 404): first, so nothing answers before it.
    ...(auth.kind === 'public' ? [] : [noStore]),
    ...(options.before ?? []),
    ...(auth.kind === 'key' ? [kit.requireAuth(options.realm)(...auth.scopes)] : []),
    ...jsonBody,
  ];
}

interface Mounted {
  readonly operation: ApiOperation;
  readonly checks: Handlers;
  readonly final: ReturnType<typeof finalStep>;
}

export function createRouting(routes: readonly Route[], kit: RouteKit): Routing {
  // Every operation's budget is known before the first request (an undeclared one throws here).
  for (const { operation } of routes) requestClassOf(operation);
  const table = new RouteTable<Mounted>(
    routes.map((route) => ({
      operation: route.operation,
      checks: checksOf(route, kit),
      final: finalStep(route, kit),
    })),
  );
  const matches = new WeakMap<Request, RouteMatch<Mounted>>();

  const match: GatewayHandler = (req, res, next) => {
    const found = table.match(req.method, req.path);
    if (found !== undefined) {
      matches.set(req, found);
      if (found.kind === 'operation') res.locals.operation = found.route.operation;
    }
    next();
  };

  const serve: GatewayHandler = (req, res, next) => {
    const found = matches.get(req);
    if (found === undefined) {
      next();
      return;
    }
    const { entry } = found;
    // Parameters that do not decode are 400 before anything else, the 405 too (as express matched).
    const params = decodeParams(found.rawParams);
    if (found.kind === 'path') {
      res.locals.routeTemplate = entry.metricsLabel;
      res.setHeader('Allow', entry.allow);
      if (req.method === 'OPTIONS') {
        res.status(204).end();
        return;
      }
      throw new MethodNotAllowedError(
        `method ${req.method} not allowed on ${echoPath(req)} (allow: ${entry.allow})`,
      );
    }
    res.locals.routeTemplate = entry.metricsLabel;
    const { checks, final } = found.route;
    runChain(req, res, [...checks, (rq, rs) => final(rq, rs, params)], next);
  };

  return { match, serve };
}
