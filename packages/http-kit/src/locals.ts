import type { Logger } from '@svc/log';
import type { NextFunction, Request, Response } from 'express';

/**
 * What the shared HTTP middleware leaves on `res.locals` in every web process (the gateway, the
 * dashboard): a process's own locals type extends it. A type alias (not an interface) so it
 * satisfies express's `Record<string, …>` constraint.
 */
export type EdgeLocals = {
  /** Sane incoming X-Request-Id or a fresh UUID; echoed and logged on every line. */
  requestId?: string;
  /** The request's logger, bound to `request_id` (request-log.ts makes it on first use). */
  log?: Logger;
  /** The real error behind a 5xx answer, for the request's completion line (never sent to the client). */
  failure?: Error;
};

export type EdgeResponse = Response<unknown, EdgeLocals>;

export type EdgeHandler = (req: Request, res: EdgeResponse, next: NextFunction) => void | Promise<void>;
