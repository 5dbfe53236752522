import type { Readable } from 'node:stream';

function keptOnStream(): void {
  // The error stays on `stream.errored`; the pipeline that consumes the stream reports it.
}

/**
 * Gives `stream` an 'error' listener at once, for the time between handing it over and a pipeline
 * consuming it (a put first makes its directory, a request body waits for the session check). An
 * error in that window (the client hung up) would otherwise be an 'error' event nobody listens to,
 * which Node turns into an uncaught exception that ends the process. Nothing is swallowed: a
 * destroyed stream keeps its error as `stream.errored`, and `pipeline`/`finished` attached later
 * report it (Node's end-of-stream checks the errored state first).
 */
export function holdStreamErrors(stream: Readable): void {
  if (!stream.listeners('error').includes(keptOnStream)) stream.on('error', keptOnStream);
}
