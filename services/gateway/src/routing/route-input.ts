import { type ApiOperation, componentNameOf, NoQuery } from '@svc/contracts';
import { BadRequestError, formatZodError, ValidationError } from '@svc/errors';
import type { Request } from 'express';
import { z } from 'zod';
import type { AuthContext } from '../locals';
import { objectBody, parseRequest } from '../middleware/validate';
import type { ParsedInput, RouteOptions } from './route';

/**
 * A request's parts parsed with its operation's schemas, in the order the routes always checked
 * them: the path parameters, the query, the headers, then the body (which the JSON body chain has
 * read by then). The first part that does not satisfy its schema is the 422, naming the field
 * (decisions D2), before any service is called.
 */

/**
 * The path parameters as the router decoded them (`%2F` is `/`). One that does not decode is 400
 * "malformed percent-encoding", as express answered it, before anything else of the route runs.
 */
export function decodeParams(raw: Readonly<Record<string, string>>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      throw new BadRequestError('malformed percent-encoding in the URL path');
    }
  }
  return decoded;
}

function parsePath(
  op: ApiOperation,
  params: Readonly<Record<string, string>>,
  options: RouteOptions,
): unknown {
  const schema = op.params?.path;
  if (schema === undefined) return undefined;
  const parsed = z.safeParse(schema, params);
  if (parsed.success) return parsed.data;
  throw options.invalidPath?.(params) ?? new ValidationError(formatZodError(parsed.error));
}

function parseQuery(op: ApiOperation, req: Request, options: RouteOptions): unknown {
  const schema = op.params?.query;
  if (schema !== undefined)
    return parseRequest(schema, req.query, options.bareQueryErrors ? undefined : 'query');
  if (op.refusesQuery) parseRequest(NoQuery, req.query, 'query');
  return undefined;
}

/** The declared headers only (lowercase, as Node gives them), not every header the client sent. */
function parseHeaders(op: ApiOperation, req: Request): unknown {
  const schema = op.params?.header;
  if (schema === undefined) return undefined;
  const names = schema instanceof z.ZodObject ? Object.keys(schema.shape) : Object.keys(req.headers);
  return parseRequest(schema, Object.fromEntries(names.map((name) => [name, req.headers[name]])), 'headers');
}

function parseBody(op: ApiOperation, req: Request, options: RouteOptions): unknown {
  const body = op.body;
  if (body === undefined || !('schema' in body)) return undefined;
  const name = componentNameOf(body.schema);
  const detail = [name === undefined ? undefined : `(${name})`, options.bodyNote].filter(Boolean).join(' ');
  return parseRequest(body.schema, objectBody(req, detail));
}

/**
 * Everything but the body for a raw route (it reads the body itself, if any); the body too for a
 * JSON route. `params`: decoded already (decodeParams).
 */
export function parseInput(
  op: ApiOperation,
  req: Request,
  params: Readonly<Record<string, string>>,
  auth: AuthContext | undefined,
  options: RouteOptions & { readonly withBody: boolean },
): ParsedInput {
  return {
    params: parsePath(op, params, options),
    query: parseQuery(op, req, options),
    headers: parseHeaders(op, req),
    body: options.withBody ? parseBody(op, req, options) : undefined,
    auth,
  };
}
