import type { ApiOperation, Scope } from '@svc/contracts';
import type { Logger } from '@svc/log';
import type { NextFunction, Request, Response } from 'express';

/** Who is calling, set by `requireAuth` once the API key has been verified (spec §5). */
export interface AuthContext {
  readonly clientId: string;
  readonly clientName: string;
  readonly keyId: string;
  readonly scopes: readonly Scope[];
  /**
   * The client's operator overrides of its rate-limit budgets (auth.clients.rate_limits, read with
   * the key), unparsed: the rate limiter validates them (rate-limit/budgets.ts).
   */
  readonly rateLimits?: unknown;
}

/**
 * What the gateway's middleware leaves on `res.locals`. A type alias (not an interface) so it
 * satisfies express's `Record<string, …>` constraint and handlers read typed fields, not `any`.
 */
export type GatewayLocals = {
  /** Sane incoming X-Request-Id or a fresh UUID; echoed and logged on every line. */
  requestId?: string;
  /** The matched route's template (e.g. `/api/capabilities/:slug`), for metrics; unset when none matched. */
  routeTemplate?: string;
  /**
   * The operation the request is for, matched once before anything else (routing/serve-routes.ts):
   * the contract headers, the rate limiter and the body pace watch read it. Unset: no operation
   * serves this method and path (a 404 or 405).
   */
  operation?: ApiOperation;
  auth?: AuthContext;
  /** The request's logger, bound to `request_id` (request-log.ts makes it on first use). */
  log?: Logger;
  /** The real error behind a 5xx answer, for the request's completion line (never sent to the client). */
  failure?: Error;
};

export type GatewayResponse = Response<unknown, GatewayLocals>;

export type GatewayHandler = (req: Request, res: GatewayResponse, next: NextFunction) => void | Promise<void>;

/** res.locals.auth is set by requireAuth earlier in the chain; its absence is a wiring bug (logged, 500). */
export function authOf(res: GatewayResponse): AuthContext {
  const auth = res.locals.auth;
  if (auth === undefined) throw new Error('route reached without requireAuth');
  return auth;
}
