import type { Server } from 'node:http';
import type { Logger } from '@svc/log';
import type { Closable } from '@svc/service-kit';
import type { Express } from 'express';

export interface InternalServer extends Closable {
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
}

// ms: while draining, how often keep-alive connections that have become idle are closed.
const IDLE_SWEEP_MS = 50;

export interface ListenOptions {
  /** 0 = any free port. */
  port: number;
  /** ms `close()` lets in-flight requests finish before cutting them. */
  graceMs: number;
  /**
   * ms one request may take, body included (UPLOAD_PUT_TIMEOUT_MS). Node's default (300 s) would cut
   * a large upload on a slow link long before its claim turns stale.
   */
  requestTimeoutMs: number;
}

/**
 * Listens and resolves once connections are accepted, logging `{"msg":"listening","port":N}`.
 * `close()` stops accepting, lets in-flight requests (an upload streaming) finish for up to
 * `graceMs`, then cuts the rest: a cut PUT fails its put and keeps nothing.
 */
export function listenInternal(
  app: Express,
  options: ListenOptions,
  logger: Logger,
): Promise<InternalServer> {
  const { port, graceMs } = options;
  return new Promise((resolve, reject) => {
    // Express 5 passes a listen error (EADDRINUSE, EACCES) to this callback.
    const server: Server = app.listen(port, (err?: Error) => {
      if (err) {
        reject(err);
        return;
      }
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error('internal server is not listening on a TCP port'));
        return;
      }
      server.requestTimeout = options.requestTimeoutMs;
      logger.info({ port: address.port, server: 'data' }, 'listening');
      resolve({
        name: 'internal http server',
        port: address.port,
        url: `http://127.0.0.1:${address.port}`,
        close: () => closeServer(server, graceMs),
      });
    });
  });
}

function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
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
