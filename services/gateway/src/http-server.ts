import type { Server } from 'node:http';
import type { Closable } from '@svc/service-kit';
import type { Express } from 'express';

export interface HttpServerHandle extends Closable {
  readonly port: number;
}

// ms: the longest a request may take to arrive in full. Node's default (300 s) would cut a 256 MiB
// upload PUT on a link slower than ~7 Mbit/s; this matches the uploads service's UPLOAD_PUT_TIMEOUT_MS
// default (after which it treats a PUT as stale). Slow headers are still cut by headersTimeout (60 s).
export const REQUEST_TIMEOUT_MS = 600_000;

/**
 * Listens on `port` (0 = any free one) and resolves once connections are accepted. `close()` stops
 * accepting, lets in-flight requests finish, closes idle keep-alive connections at once, and cuts
 * whatever is still open after `graceMs` so a slow client cannot hold the shutdown.
 */
export function listenHttp(app: Express, port: number, graceMs: number): Promise<HttpServerHandle> {
  return new Promise((resolve, reject) => {
    // Express 5 passes a listen error (EADDRINUSE, EACCES) to this callback.
    const server: Server = app.listen(port, (err?: Error) => {
      if (err) {
        reject(err);
        return;
      }
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error('HTTP server is not listening on a TCP port'));
        return;
      }
      resolve({ name: 'http', port: address.port, close: () => closeHttp(server, graceMs) });
    });
    server.requestTimeout = REQUEST_TIMEOUT_MS;
  });
}

// ms: while draining, how often keep-alive connections that have become idle are closed.
const IDLE_SWEEP_MS = 50;

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
    server.closeIdleConnections();
  });
}
