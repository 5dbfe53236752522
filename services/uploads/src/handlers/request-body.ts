import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';

/** The client closed the connection before the whole body arrived. */
export class ClientAbortedError extends Error {
  constructor() {
    super('the client closed the connection before the body was complete');
    this.name = 'ClientAbortedError';
  }
}

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

/**
 * Wraps a request body for streaming into storage. Piping the request straight into a pipeline
 * would destroy the request (and with it the socket) on the first failed check, so the client
 * would see a reset instead of its 413 or 422. Here the request feeds a PassThrough: a failed
 * check destroys only that, while a client that hangs up mid-body errors it (ClientAbortedError),
 * which fails the store's put, so nothing is kept (docs/decisions.md U4).
 */
export function requestBody(req: IncomingMessage): RequestBody {
  const stream = new PassThrough();
  const onClose = () => {
    if (!req.complete) stream.destroy(new ClientAbortedError());
  };
  req.on('error', () => stream.destroy(new ClientAbortedError()));
  req.on('close', onClose);
  req.pipe(stream);
  return {
    stream,
    complete: () => req.complete,
    discard() {
      req.off('close', onClose);
      req.unpipe(stream);
      if (!stream.destroyed) stream.destroy();
      req.resume();
    },
  };
}
