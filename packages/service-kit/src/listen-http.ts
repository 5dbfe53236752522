import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Closable } from './closable';
import { answerClientErrors } from './http-client-errors';

export interface HttpServerHandle extends Closable {
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
}

export interface ListenHttpOptions {
  /** 0 = any free port. */
  port: number;
  /** ms `close()` lets in-flight requests finish before cutting them. */
  graceMs: number;
  /**
   * ms one request may take to arrive in full, body included. Node's default (300 s) would cut a
   * large upload on a slow link; slow headers are still cut by headersTimeout (60 s).
   */
  requestTimeoutMs: number;
  /** Name of the handle in shutdown logs; default `http`. */
  name?: string;
  /** Headers of the answers Node's parser refuses before the app sees them (400, 408, 413, 431). */
  clientErrorHeaders?: Readonly<Record<string, string>>;
}

// ms: while draining, how often keep-alive connections that have become idle are closed.
const IDLE_SWEEP_MS = 50;

/**
 * Listens and resolves once connections are accepted (the gateway's public port, the uploads
 * service's internal one). `close()` stops accepting, lets in-flight requests finish (an upload
 * streaming), closes idle keep-alive connections as they become idle, and cuts whatever is still
 * open after `graceMs` so a slow client cannot hold the shutdown.
 */
export function listenHttp(app: Express, options: ListenHttpOptions): Promise<HttpServerHandle> {
  return new Promise((resolve, reject) => {
    // Express 5 passes a listen error (EADDRINUSE, EACCES) to this callback.
    const server: Server = app.listen(options.port, (err?: Error) => {
      if (err) {
        reject(err);
        return;
      }
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error('HTTP server is not listening on a TCP port'));
        return;
      }
      resolve({
        name: options.name ?? 'http',
        port: address.port,
        url: `http://127.0.0.1:${address.port}`,
        close: () => closeHttp(server, options.graceMs),
      });
    });
    server.requestTimeout = options.requestTimeoutMs;
    // Parser refusals (bad framing, a 100 KB URL, timeouts) answered as `{ok:false, error}`.
    answerClientErrors(server, options.clientErrorHeaders);
  });
}

function closeHttp(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    // server.close() closes the connections idle at that moment; one whose in-flight request ends
    // later would otherwise stay open until the client's keep-alive timeout.
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(force);
      resolve();
    });
  });
}
