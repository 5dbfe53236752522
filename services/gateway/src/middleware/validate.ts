import { AppError, formatZodError, ValidationError } from '@svc/errors';
import express, { type Request } from 'express';
import { z } from 'zod';
import type { GatewayHandler } from '../locals';
import { safeJsonBody } from './safe-input';

/**
 * Parses a request part with its contract schema. Status policy (the same for every route):
 * 400 for input that cannot be parsed at all (malformed JSON, see errors.ts), 422 for input that
 * parses but does not satisfy the contract (unknown query parameter, limit out of range, …), as
 * spec §7.2 does for the crt run envelope.
 */
export function parseRequest<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
  prefix?: string,
): z.output<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) {
    throw new ValidationError(formatZodError(result.error, prefix));
  }
  return result.data;
}

/**
 * The JSON body of a route whose body is an object; `detail` follows the message, e.g.
 * `(RunRequest)` naming the contract (routing/route-input.ts names it by its component).
 * An array, a missing body or `null` gets one clear 422 rather than a confusing message from the
 * object schema; a bare JSON string or number never gets here (the strict parser answers 400).
 */
export function objectBody(req: Request, detail: string): unknown {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError(`body: must be a JSON object${detail === '' ? '' : ` ${detail}`}`);
  }
  return body;
}

/**
 * For routes that take a JSON body: a body in another media type is 415 rather than being silently
 * ignored (express.json() only parses `application/json` and leaves other bodies unread).
 * A request without a body passes; the body schema then decides.
 */
const requireJsonBody: GatewayHandler = (req, _res, next) => {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody && req.is(['application/json', '+json']) === false) {
    throw new AppError(415, 'unsupported Content-Type: send the body as application/json');
  }
  next();
};

/**
 * The head of every route that takes a JSON body: content type first (415 without reading the
 * body), then the parser with the size limit (413) and syntax check (400 "malformed JSON body", see
 * errors.ts), then the safe-input check of the parsed value (422 for NUL, unpaired surrogates, too
 * deep or too many values: safe-input.ts). Per route rather than app-wide, so a body sent to an unknown path or with the wrong
 * method gets its 404/405 rather than a parse error, and no body is read where none is expected.
 */
export function createJsonBody(limit: string): GatewayHandler[] {
  return [
    requireJsonBody,
    express.json({ limit, type: ['application/json', 'application/*+json'] }),
    safeJsonBody,
  ];
}
