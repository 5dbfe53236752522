import type { Server } from 'node:http';
import type { HealthResponse } from '@svc/contracts';
import { MethodNotAllowedError, NotFoundError, toErrorResponse } from '@svc/errors';
import type { Logger } from '@svc/log';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Registry } from 'prom-client';
import type { ReadinessCheckFn } from './checks';
import type { Closable } from './closable';
import { answerClientErrors } from './http-client-errors';
import { createMetricsRegistry } from './metrics';
import { DEFAULT_CHECK_TIMEOUT_MS, runReadinessChecks } from './readiness';
import { type ReadinessPresence, startReadinessHeartbeat } from './readiness-heartbeat';

export interface HealthServerOptions {
  service: string;
  /** 0 picks a free port (tests, several workers on one host). */
  port: number;
  /** Interface to bind; all interfaces by default (probes come from outside the pod). */
  host?: string;
  /** Dependency checks of /readyz, by name (e.g. `{ redis: redisCheck(bus.redis) }`). */
  checks: Record<string, ReadinessCheckFn>;
  logger: Logger;
  /** Registry served on /metrics; a new one with default metrics when omitted. */
  registry?: Registry;
  /** ms: a check that has not answered by then counts as failed. Default 1_000. */
  checkTimeoutMs?: number;
  /**
   * Where to report this instance's readiness (the checks above) every few seconds, so the
   * gateway's /readyz shows whether the service is up: `servicePresence(bus, service)`.
   */
  presence?: ReadinessPresence;
}

export interface HealthServer extends Closable {
  readonly port: number;
  /** `http://127.0.0.1:<port>` (loopback, whatever the bind address). */
  readonly url: string;
  readonly registry: Registry;
}

/** ms: how long close() lets in-flight requests finish before cutting connections. */
const CLOSE_GRACE_MS = 2_000;

const startedAt = Date.now();

/**
 * The internal HTTP server of a service: `/healthz` (200 while the process is up: liveness),
 * `/readyz` (every check passes: 200, else 503 naming the failures: readiness) and `/metrics`
 * (Prometheus text). Resolves once listening. Internal port: no auth, no helmet.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const { service, logger } = options;
  const registry = options.registry ?? createMetricsRegistry(service);
  const checkTimeoutMs = options.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const app = express();
  app.disable('x-powered-by');

  app.get('/healthz', (_req, res) => {
    const body: HealthResponse = { ok: true, service, uptime_s: (Date.now() - startedAt) / 1000 };
    res.json(body);
  });

  app.get('/readyz', async (_req, res) => {
    const body = await runReadinessChecks(service, options.checks, checkTimeoutMs);
    if (!body.ok) logger.warn({ checks: body.checks }, 'not ready');
    res.status(body.ok ? 200 : 503).json(body);
  });

  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });

  app.all(['/healthz', '/readyz', '/metrics'], (req, res) => {
    res.set('Allow', 'GET, HEAD');
    sendError(res, new MethodNotAllowedError(`method ${req.method} not allowed`));
  });
  app.use((_req, res) => sendError(res, new NotFoundError('not found')));
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err }, 'health server error');
    sendError(res, err);
  });

  const server = await listen(app, options.port, options.host);
  const port = boundPort(server);
  logger.info({ port }, 'listening');
  const heartbeat =
    options.presence === undefined
      ? undefined
      : await startReadinessHeartbeat({
          service,
          checks: options.checks,
          checkTimeoutMs,
          presence: options.presence,
          logger,
        });

  return {
    name: `${service} health server`,
    port,
    url: `http://127.0.0.1:${port}`,
    registry,
    // Withdrawn first: the platform stops counting on this instance before it stops answering.
    close: async () => {
      await heartbeat?.stop();
      await closeServer(server);
    },
  };
}

function sendError(res: Response, err: unknown): void {
  const { status, body } = toErrorResponse(err);
  res.status(status).json(body);
}

function listen(app: express.Express, port: number, host: string | undefined): Promise<Server> {
  return new Promise((resolve, reject) => {
    // Express 5 hands a listen error (EADDRINUSE, …) to this callback.
    const done = (err?: Error) => (err ? reject(err) : resolve(server));
    const server = host === undefined ? app.listen(port, done) : app.listen(port, host, done);
    // Parser refusals answered as `{ok:false, error}`, as on every HTTP server (http-client-errors.ts).
    answerClientErrors(server);
  });
}

function boundPort(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error('health server is not listening on a TCP port');
  return address.port;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
