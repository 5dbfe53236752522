import { STATUS_CODES } from 'node:http';
import { AppError, BadRequestError, PayloadTooLargeError, toErrorResponse } from '@svc/errors';
import type { NextFunction, Request } from 'express';
import type { GatewayResponse } from '../locals';
import { cutForSlowBody } from './body-rate';

// s: when a client should retry after a 503 (decisions.md D1/P1). Registry or wallet restarts and
// Redis blips are over in seconds; longer outages just get more retries.
export const RETRY_AFTER_SECONDS = 2;

/** The shape of errors thrown by body-parser, the router and other http-errors users. */
interface HttpErrorLike {
  readonly status: number;
  readonly message: string;
  readonly type?: unknown;
  readonly expose?: unknown;
}

function isHttpErrorLike(err: unknown): err is HttpErrorLike {
  return (
    err instanceof Error &&
    'status' in err &&
    typeof err.status === 'number' &&
    Number.isInteger(err.status) &&
    err.status >= 400 &&
    err.status < 600
  );
}

/**
 * An error of Node itself that body-parser passed on as a 400 with its message exposed: zlib's, when
 * a gzip/deflate/br body does not decompress (`Z_DATA_ERROR` "incorrect header check", `Z_BUF_ERROR`
 * "unexpected end of file", brotli's `ERR__ERROR_FORMAT_…`), or the socket's. Both carry a numeric
 * `errno` and a string `code`; their words are not ours to send (issue 23 item 15).
 */
function nodeErrorCode(err: object): string | undefined {
  if (!('errno' in err) || typeof err.errno !== 'number') return undefined;
  return 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

function isDecompressionCode(code: string): boolean {
  return code.startsWith('Z_') || code.startsWith('ERR__ERROR');
}

/**
 * Turns what express and its middleware throw into our AppError family, so that every error body is
 * the spec's ErrorResponse (§2.6, §7.1). Messages are ours, not the library's: body-parser's parse
 * error quotes the offending body, which may contain secrets.
 */
export function normaliseError(err: unknown, bodyLimit: string): unknown {
  if (err instanceof AppError || !isHttpErrorLike(err)) return err;
  // The router's failure to decode a path parameter (e.g. `%E0%A4%A`): a URIError with status 400.
  if (err instanceof URIError) return new BadRequestError('malformed percent-encoding in the URL path');
  const nodeCode = nodeErrorCode(err);
  if (nodeCode !== undefined && err.status < 500) {
    return new BadRequestError(
      isDecompressionCode(nodeCode)
        ? 'malformed request body: it does not decompress as its Content-Encoding says'
        : 'request body could not be read',
    );
  }
  switch (err.type) {
    case 'entity.parse.failed':
      return new BadRequestError('malformed JSON body');
    case 'entity.too.large':
      return new PayloadTooLargeError(`request body too large (limit ${bodyLimit})`);
    case 'encoding.unsupported':
      return new AppError(415, 'unsupported Content-Encoding: send identity, gzip, deflate or br');
    case 'charset.unsupported':
      return new AppError(415, 'unsupported charset: send JSON as UTF-8');
    case 'request.aborted':
    case 'request.size.invalid':
      return new BadRequestError('request body ended before Content-Length bytes');
    default:
      if (err.status >= 500) return err; // ours to log and hide
      // Other 4xx from http-errors: its message is meant for clients only when `expose` is set.
      return new AppError(
        err.status,
        err.expose === true ? err.message : (STATUS_CODES[err.status] ?? 'bad request').toLowerCase(),
      );
  }
}

/**
 * The last middleware: maps any error to `{ok:false, error}` with its status. A 5xx keeps the real
 * error on `res.locals.failure`: the request's single completion line (request-log.ts, with `request_id`)
 * then carries its message and stack for operators, while the client only gets "internal error"
 * (or the safe 503/504 message).
 */
export function errorHandler(bodyLimit: string) {
  return (err: unknown, _req: Request, res: GatewayResponse, next: NextFunction): void => {
    if (res.headersSent) {
      // Answered 408 already (body-rate.ts), its connection closing: the reader of the body failing
      // now is expected, nothing to report.
      if (cutForSlowBody(res)) return;
      // Too late for a body: let express abort the connection.
      next(err);
      return;
    }
    const normalised = normaliseError(err, bodyLimit);
    const { status, body } = toErrorResponse(normalised);
    if (status >= 500) res.locals.failure = err instanceof Error ? err : new Error(String(err));
    if (status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    res.status(status).json(body);
  };
}
