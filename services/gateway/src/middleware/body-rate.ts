import { AppError, toErrorResponse } from '@svc/errors';
import type { NextFunction, Request } from 'express';
import type { GatewayResponse } from '../locals';

/**
 * The minimum rate of a request body (issue 23 item 15; decisions I7). Node only bounds a whole
 * request (`requestTimeout`, 10 min here for the upload PUT), so a body that drips one byte at a time
 * held its socket for up to 10 minutes. The rule is Apache httpd's mod_reqtimeout `body=20,MinRate=500`:
 * a body gets `graceMs` to arrive, extended by 1 s for every `minBytesPerSecond` bytes received;
 * past that deadline it is cut with 408 `{ok:false, error}` and `Connection: close`. Time in which
 * the gateway itself does not read (its buffer of the body is full: the handler is still checking
 * the key, the upstream is slow) is not counted: that is our backpressure, not the client's pace.
 */
export interface BodyRateOptions {
  /** BODY_GRACE_MS: ms every body gets before its pace counts. */
  readonly graceMs: number;
  /** BODY_MIN_BYTES_PER_SECOND: each this many bytes received extend the deadline by 1 s (0: none). */
  readonly minBytesPerSecond: number;
  /**
   * Bodies with a clock of their own elsewhere (the upload PUT: the uploads service's idle timeout);
   * `res` carries the operation the request matched (`res.locals.operation`).
   */
  readonly exempt?: (req: Request, res: GatewayResponse) => boolean;
}

// ms: how often a body's progress is looked at: a tenth of the grace, between these bounds (a
// short grace in tests is looked at often; a 20 s grace once a second).
const MIN_CHECK_INTERVAL_MS = 20;
const MAX_CHECK_INTERVAL_MS = 1_000;

/** The answers this middleware cut: errors their handlers raise afterwards have nowhere to go. */
const cutResponses = new WeakSet<GatewayResponse>();

/** Whether `res` was answered 408 (or its connection cut) because its request body was too slow. */
export function cutForSlowBody(res: GatewayResponse): boolean {
  return cutResponses.has(res);
}

/** The 408's words: the rule, so a client can tell what it broke. */
export function slowBodyMessage(options: Pick<BodyRateOptions, 'graceMs' | 'minBytesPerSecond'>): string {
  const grace = `${options.graceMs / 1000} s`;
  return options.minBytesPerSecond > 0
    ? `request body too slow: after the first ${grace} it must keep arriving at ${options.minBytesPerSecond} bytes per second or more`
    : `request body too slow: it must arrive in full within ${grace}`;
}

/** A request that announces a body (as body-parser's `type-is.hasBody` decides). */
function announcesBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * Node stops reading the socket once the request's buffer is full (`push` returned false): the
 * client is then held back by us, however fast it could send.
 */
function heldBackByUs(req: Request): boolean {
  return req.readableLength >= req.readableHighWaterMark;
}

/** Answers 408 if nothing was answered yet (Node closes the connection after it); else cuts it. */
function cut(req: Request, res: GatewayResponse, message: string): void {
  cutResponses.add(res);
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const { status, body } = toErrorResponse(new AppError(408, message));
  // The rest of the body is not wanted: Node ends the connection once the answer is written.
  res.setHeader('Connection', 'close');
  res.status(status).json(body);
}

/** Watches one request's body until it is complete or its connection closes. */
function watch(req: Request, res: GatewayResponse, options: BodyRateOptions, checkMs: number): void {
  const { socket } = req;
  // Bytes of the connection, not of `req`: counting `req`'s own data events would consume the body.
  const startBytes = socket.bytesRead;
  let countedMs = 0;
  let last = performance.now();
  const stop = () => {
    clearInterval(timer);
    req.off('end', stop);
  };
  const check = () => {
    if (req.complete || socket.destroyed) {
      stop();
      return;
    }
    const now = performance.now();
    const elapsed = now - last;
    last = now;
    if (heldBackByUs(req)) return;
    countedMs += elapsed;
    const received = socket.bytesRead - startBytes;
    const earnedMs = options.minBytesPerSecond > 0 ? (received * 1000) / options.minBytesPerSecond : 0;
    if (countedMs <= options.graceMs + earnedMs) return;
    stop();
    cut(req, res, slowBodyMessage(options));
  };
  const timer = setInterval(check, checkMs);
  // A timer per body in flight must not keep the process alive on its own.
  timer.unref();
  // Read in full: done at once. (An 'end' listener does not start the body flowing; a listener on
  // the socket would pile up on a keep-alive connection. A closed socket is seen at the next check.)
  req.once('end', stop);
}

/**
 * App-wide, before any router: every body is watched from the moment its headers arrived, whether a
 * route reads it, answers before reading it (401, 404, 429: Node then reads and drops the rest), or
 * never reads it.
 */
export function bodyRate(options: BodyRateOptions) {
  const checkMs = Math.min(MAX_CHECK_INTERVAL_MS, Math.max(MIN_CHECK_INTERVAL_MS, options.graceMs / 10));
  return (req: Request, res: GatewayResponse, next: NextFunction): void => {
    if (announcesBody(req) && !req.complete && options.exempt?.(req, res) !== true) {
      watch(req, res, options, checkMs);
    }
    next();
  };
}
