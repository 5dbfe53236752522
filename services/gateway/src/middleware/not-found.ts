import { NotFoundError } from '@svc/errors';
import type { Request } from 'express';
import type { GatewayHandler } from '../locals';

// Paths are echoed in error messages; a very long one is cut so the message stays one readable line.
const MAX_ECHOED_PATH = 200; // chars

/** The request's path as the client sent it (no query string: it may carry data), cut if very long. */
export function echoPath(req: Request): string {
  const path = req.originalUrl.split('?')[0] ?? '';
  return path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
}

/** After every router: nothing matched the path. */
export const notFound: GatewayHandler = (req, _res, next) => {
  next(new NotFoundError(`no route for ${req.method} ${echoPath(req)}`));
};
