import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { finished, type Readable } from 'node:stream';
import { ErrorResponse } from '@svc/contracts';
import { AppError, InternalError, ServiceUnavailableError } from '@svc/errors';
import type { Request } from 'express';
import type { EdgeResponse } from './locals';

/**
 * A call to another process's internal HTTP server (the uploads service's DATA_PORT for upload bytes
 * and artifact downloads, the dashboard's for its pages): bodies travel as HTTP streams, not over
 * the RPC bus, so a 256 MiB file is never held in memory by either process (docs/decisions.md,
 * uploads and artifacts). Node's `http.request` + `pipe`: backpressure from the slower side
 * throttles the faster one.
 */

export interface UpstreamTarget {
  /** The server's base URL, e.g. `http://127.0.0.1:8094` (no trailing slash needed). */
  readonly baseUrl: string;
  /**
   * ms to get a TCP connection before answering 503 (RPC_TIMEOUT_MS: the same patience as an RPC).
   * A call without a body (a download) must also have its status line and headers within it, unless
   * it says otherwise (`waitForAnswer`); a call with a body has no such deadline once connected,
   * since the answer waits for the whole body.
   */
  readonly connectTimeoutMs: number;
  /** How errors name the server: `uploads service is unavailable` (default "uploads service"). */
  readonly name?: string;
}

export interface UpstreamCall {
  /** `GET`, `PUT`, `POST`, `HEAD`…: sent as given. */
  readonly method: string;
  /** Path and query on the internal server, e.g. `/internal/uploads/<id>`. */
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  /** Streamed as the request body as it arrives, never buffered; absent: no body. */
  readonly body?: Readable;
  /** Aborted when the client went away (clientGoneSignal): the upstream request is cut with it. */
  readonly signal: AbortSignal;
  /**
   * Whether the answer of a call without a body is due within `connectTimeoutMs` (default true: a
   * download's headers come at once). False for a server whose answers take as long as they take
   * (the dashboard's pages wait on RPCs with deadlines of their own).
   */
  readonly answerWithinConnectTimeout?: boolean;
}

const DEFAULT_NAME = 'uploads service';

export interface UpstreamExchange {
  readonly response: IncomingMessage;
  /** Cuts the upstream request (e.g. it answered before the client's body ended). */
  abort(): void;
}

/** The client went away before the upstream answered: there is nobody left to answer. */
export class ClientGoneError extends Error {
  constructor(name: string = DEFAULT_NAME) {
    super(`the client closed the connection before the ${name} answered`);
    this.name = 'ClientGoneError';
  }
}

/** The request headers named in `names` (lowercase) that the client sent, plus our request id. */
export function forwardedHeaders(
  req: Request,
  res: EdgeResponse,
  names: readonly string[],
  extra: OutgoingHttpHeaders = {},
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ...extra };
  for (const name of names) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  // The id the gateway settled on (sane or generated, request-id.ts), so both services log the same one.
  if (res.locals.requestId !== undefined) headers['x-request-id'] = res.locals.requestId;
  return headers;
}

/**
 * Sends one request to the target and resolves with its response as soon as the status line and
 * headers arrive (the body is the caller's to stream or read). Rejects with 503 when the server
 * cannot be reached (refused, reset, no connection within `connectTimeoutMs`, or for a call without
 * a body no answer within it: D1, the same as an RPC that is not answered) and with ClientGoneError
 * when the client left first.
 */
export function callUpstream(target: UpstreamTarget, call: UpstreamCall): Promise<UpstreamExchange> {
  const name = target.name ?? DEFAULT_NAME;
  return new Promise((resolve, reject) => {
    // Gone before we start (the request closed while earlier middleware ran): nothing to forward,
    // and `close` has fired already, so clientGoneSignal would never abort the upstream request.
    if (call.signal.aborted || call.body?.destroyed === true) {
      reject(new ClientGoneError(name));
      return;
    }
    const url = `${target.baseUrl.replace(/\/+$/, '')}${call.path}`;
    // agent: false — a fresh connection per exchange. A pooled keep-alive socket the server has just
    // closed fails the request with ECONNRESET, and a streamed body cannot be replayed to retry.
    const upstream = httpRequest(url, {
      method: call.method,
      // With a body, `keep-alive` (agent: false alone sends `Connection: close`): a server answering a
      // `close` request ends the connection right after its answer, so an early refusal (401, 415)
      // would hit a body still being written (EPIPE) and the answer would be lost. Kept alive, the
      // uploads service reads and drops the rest while we read its answer; we cut the connection
      // afterwards (exchange.abort), it is never reused.
      headers: call.body === undefined ? call.headers : { ...call.headers, connection: 'keep-alive' },
      agent: false,
      signal: call.signal,
    });
    let settled = false;
    const body = call.body;
    // Without a body the answer is due at once (D1: 503 when a service does not answer in time):
    // a connected but silent uploads service would otherwise hold the request forever.
    const waitsForAnswer = body === undefined && call.answerWithinConnectTimeout !== false;
    const connectTimer = setTimeout(() => {
      const what = waitsForAnswer ? 'no answer' : 'no connection';
      upstream.destroy(new Error(`${what} within ${target.connectTimeoutMs} ms`));
    }, target.connectTimeoutMs);
    upstream.once('socket', (socket) => {
      if (waitsForAnswer) return;
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once('connect', () => clearTimeout(connectTimer));
    });
    upstream.once('response', (response) => {
      clearTimeout(connectTimer);
      settled = true;
      resolve({ response, abort: () => upstream.destroy() });
    });
    // `on`, not `once`: a second error (after the response, or while the body still flows) must not
    // become an uncaught exception. Errors after the response are the body reader's business.
    upstream.on('error', (err) => {
      clearTimeout(connectTimer);
      if (settled) return;
      settled = true;
      if (call.signal.aborted || err instanceof ClientGoneError) reject(new ClientGoneError(name));
      else reject(new ServiceUnavailableError(`${name} is unavailable`, { cause: err }));
    });
    if (body === undefined) {
      upstream.end();
      return;
    }
    // The client's body failing or ending early (a reset or a hang-up at any point of the upload)
    // cuts the upstream request, so the uploads service sees an aborted PUT, keeps nothing and
    // releases its claim. `finished`, not an 'error' listener: a hang-up without an error (a
    // premature close) counts too, and its listeners stay attached, so no later error of the request
    // is ever an uncaught exception. `pipe`, not pipeline: a refusal upstream must not destroy the
    // client's request (and socket) before the gateway has relayed the answer.
    finished(body, (err) => {
      if (err) upstream.destroy(new ClientGoneError(name));
    });
    body.pipe(upstream);
  });
}

// bytes: the uploads service answers small JSON documents (an UploadResponse or an ErrorResponse).
const MAX_JSON_ANSWER_BYTES = 1024 * 1024;

/** Reads the upstream's JSON answer (bounded). Anything else is our fault: 500, reason logged. */
export async function readUpstreamJson(
  response: IncomingMessage,
  name: string = DEFAULT_NAME,
): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_JSON_ANSWER_BYTES) {
      response.destroy();
      throw new InternalError(`${name} answered more than ${MAX_JSON_ANSWER_BYTES} bytes of JSON`);
    }
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new InternalError(`${name} answered ${response.statusCode} with a body that is not JSON`);
  }
}

/**
 * An error answer of the upstream as the same error of ours: its status and message reach the
 * client unchanged (a 5xx message is replaced by "internal error" except for 503, as for any
 * AppError), and the error handler adds what every error gets (Retry-After on 503, the log line).
 */
export function relayedError(status: number, body: unknown, name: string = DEFAULT_NAME): AppError {
  const parsed = ErrorResponse.safeParse(body);
  if (status < 400 || status > 599 || !parsed.success) {
    return new InternalError(`${name} answered ${status} with an unexpected body`);
  }
  return new AppError(status, parsed.data.error);
}

/** Copies the named upstream response headers (lowercase) that are present onto our response. */
export function relayHeaders(response: IncomingMessage, res: EdgeResponse, names: readonly string[]): void {
  for (const name of names) {
    const value = response.headers[name];
    if (value !== undefined) res.setHeader(name, value);
  }
}
