import { maxHeaderSize, type Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorResponse } from '@svc/contracts';

/**
 * Node answers requests its HTTP parser refuses by itself, with an empty body: 400 for bad framing
 * (a malformed request line, Content-Length with chunked, invalid header characters), 431 for a
 * request line and headers over `maxHeaderSize` (a ~100 KB URL), 408 when a request does not
 * arrive within `requestTimeout`/`headersTimeout` (issue 13 finding 7). This answers them in our
 * shape, `{ok:false, error}`, for every HTTP server of the platform (listenHttp: the gateway and the
 * uploads service's internal server; startHealthServer: every service's health port).
 */

/** ms the client gets to read the answer before the connection is cut. */
const CLOSE_GRACE_MS = 2_000;

interface ClientErrorAnswer {
  readonly status: number;
  readonly message: string;
}

/** llhttp's codes of a malformed request (400) → what was wrong with it. */
const MALFORMED = new Map<string, string>([
  ['HPE_INVALID_HEADER_TOKEN', 'invalid character in a header'],
  ['HPE_INVALID_METHOD', 'unknown method'],
  ['HPE_INVALID_URL', 'invalid request target'],
  ['HPE_INVALID_VERSION', 'unsupported HTTP version'],
  ['HPE_INVALID_CONTENT_LENGTH', 'invalid Content-Length'],
  // llhttp's code for chunked together with Content-Length too (request smuggling guard).
  ['HPE_UNEXPECTED_CONTENT_LENGTH', 'invalid Transfer-Encoding, or sent together with Content-Length'],
  ['HPE_INVALID_TRANSFER_ENCODING', 'invalid Transfer-Encoding, or sent together with Content-Length'],
  ['HPE_INVALID_CHUNK_SIZE', 'invalid chunk size'],
]);

/** llhttp's error codes (and Node's timeout code) → our status and message. */
function answerFor(code: string | undefined, headerLimit: number): ClientErrorAnswer {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        message: `request line and headers too large: at most ${headerLimit} bytes in all`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'chunk extensions too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'request timed out: it did not arrive in full in time' };
  }
  const what = code === undefined ? undefined : MALFORMED.get(code);
  return {
    status: 400,
    message: what === undefined ? 'malformed HTTP request' : `malformed request: ${what}`,
  };
}

/** A complete HTTP/1.1 response (the socket has no ServerResponse to write it for us). */
export function rawErrorResponse(
  status: number,
  message: string,
  extraHeaders: Readonly<Record<string, string>> = {},
): string {
  const body: ErrorResponse = { ok: false, error: message };
  const json = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    ...Object.entries(extraHeaders).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
    '',
    json,
  ].join('\r\n');
}

function errorCode(err: Error): string | undefined {
  return 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

/**
 * Whether this connection's current response has begun (its head written): then a second status
 * line would corrupt it, and the connection can only be cut. Node's own rule, read through the
 * public `headersSent` of the ServerResponse Node keeps on the socket.
 */
function responseStarted(socket: Duplex): boolean {
  const current: unknown = Reflect.get(socket, '_httpMessage');
  return current instanceof ServerResponse && current.headersSent;
}

/**
 * Installs the `clientError` answer on `server` (replacing Node's). A connection reset or an
 * unwritable socket is closed silently; otherwise the answer is written and the connection half
 * closed, then cut after CLOSE_GRACE_MS (or when the client closes first). Cutting it at once, as
 * Node does, resets a connection whose client is still sending (the rest of a 100 KB URL), which can
 * lose the answer before the client reads it. Once answered, a socket's further parse errors (llhttp
 * repeats its error for every later chunk) are ignored. `extraHeaders` go on every such answer (the
 * gateway's `Svc-Contract-Version`).
 */
export function answerClientErrors(
  server: Server,
  extraHeaders: Readonly<Record<string, string>> = {},
): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (err: Error, socket: Duplex) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const code = errorCode(err);
    if (code === 'ECONNRESET' || code === 'EPIPE' || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    // The servers here keep Node's default header limit (16 KiB), process-wide unless --max-http-header-size.
    const { status, message } = answerFor(code, maxHeaderSize);
    const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.end(rawErrorResponse(status, message, extraHeaders));
  });
}
