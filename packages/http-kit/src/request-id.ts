import { randomUUID } from 'node:crypto';
import type { EdgeHandler } from './locals';

export const REQUEST_ID_HEADER = 'X-Request-Id';

// An incoming id is reused only if it is short and made of characters that are harmless in logs and
// headers (no spaces, quotes or control characters that could forge log lines).
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is sane, otherwise a fresh UUID. */
export function resolveRequestId(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value !== undefined && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}

/**
 * Gives each request its id before anything can fail: on `res.locals` (request-log.ts puts it on
 * every log line of the request) and in the response header.
 */
export const requestId: EdgeHandler = (req, res, next) => {
  const id = resolveRequestId(req.headers['x-request-id']);
  res.locals.requestId = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
};
