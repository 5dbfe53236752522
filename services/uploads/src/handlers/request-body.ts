import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { holdStreamErrors } from '@svc/storage';
import { BodyIdleError, ClientAbortedError } from '../domain/body-errors';

export interface RequestBody {
  /** The body as a stream the domain may consume (and destroy) freely. */
  readonly stream: Readable;
  /** Whether the whole body has been read (the request is complete). */
  complete(): boolean;
  /**
   * Stops feeding `stream` and discards what is left of the body, so the response (413, 422, …)
   * can still be written: the socket stays up until the response is sent.
   */
  discard(): void;
}

export interface RequestBodyOptions {
  /**
   * ms without a byte from the client (UPLOAD_IDLE_TIMEOUT_MS) after which `stream` errors with
   * BodyIdleError, so a stalled PUT gives its claim back instead of holding it until the PUT
   * deadline. Time the client spends held back by us (the stream's consumer not reading: the
   * domain still checking the session, storage slower than the client) does not count.
   */
  idleTimeoutMs: number;
}

/**
 * Wraps a request body for streaming into storage. Piping the request straight into a pipeline
 * would destroy the request (and with it the socket) on the first failed check, so the client
 * would see a reset instead of its 413 or 422. Here the request feeds a PassThrough: a failed
 * check destroys only that, while a client that hangs up mid-body errors it (ClientAbortedError),
 * which fails the store's put, so nothing is kept (docs/decisions.md U4).
 *
 * The client may hang up at ANY time: while the domain still reads the session and claims it, no
 * pipeline consumes `stream` yet. So `stream` has an 'error' listener from its birth
 * (holdStreamErrors): an abort before anyone reads it is kept as `stream.errored` (the domain
 * checks it before claiming, and a pipeline started later reports it) instead of being an 'error'
 * event nobody listens to, which Node turns into an uncaught exception that ends the process
 * (issue 13, finding 1).
 */
export function requestBody(req: IncomingMessage, options: RequestBodyOptions): RequestBody {
  const stream = new PassThrough();
  holdStreamErrors(stream);
  req.pipe(stream);
  // After pipe: a 'data' listener on a request nobody reads yet would start it flowing on its own.
  const idle = watchIdle(req, stream, options.idleTimeoutMs);
  const onClose = () => {
    idle.stop();
    if (!req.complete) stream.destroy(new ClientAbortedError());
  };
  req.on('error', () => stream.destroy(new ClientAbortedError()));
  req.on('close', onClose);
  req.once('end', () => idle.stop());
  return {
    stream,
    complete: () => req.complete,
    discard() {
      idle.stop();
      req.off('close', onClose);
      req.unpipe(stream);
      if (!stream.destroyed) stream.destroy();
      req.resume();
    },
  };
}

/**
 * Errors `stream` with BodyIdleError when `req` delivers no byte for `idleMs` while we are ready to
 * take one. `timer.refresh()` on every chunk: one timer per request, not one per chunk.
 */
function watchIdle(req: IncomingMessage, stream: PassThrough, idleMs: number): { stop(): void } {
  const timer = setTimeout(function check() {
    if (stream.destroyed) return;
    // Our consumer is behind (the request is paused by backpressure): the client is not stalling.
    if (stream.writableNeedDrain) {
      timer.refresh();
      return;
    }
    stream.destroy(new BodyIdleError(idleMs));
  }, idleMs);
  // A pending check must not keep a stopping process alive.
  timer.unref();
  const onData = () => timer.refresh();
  req.on('data', onData);
  return {
    stop() {
      clearTimeout(timer);
      req.off('data', onData);
    },
  };
}
