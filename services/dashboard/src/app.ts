import { isAppError } from '@svc/errors';
import { ERROR_PAGE_PATH, requestId, requestLog, safeRequestTarget } from '@svc/http-kit';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { DashboardDeps } from './ports';
import { dashboardErrorPage, dashboardRouter, internalErrorPage } from './router';

/** `trust proxy` as express takes it: off, on, a hop count, or addresses/subnets of trusted proxies. */
export type TrustProxy = boolean | number | string;

export interface DashboardAppOptions {
  /**
   * TRUST_PROXY: the hops whose X-Forwarded-For, -Proto and -Host are believed. The gateway sets
   * them to what it made of the request, so the address the sign-in throttle counts, the protocol
   * and host the cookies and the Origin check use are the browser's, not the gateway's connection.
   */
  readonly trustProxy: TrustProxy;
}

/**
 * The dashboard process's HTTP app (its DATA_PORT; the gateway proxies its public origin's
 * /dashboard here): request id → request log → security headers → the safe-path check (422) → the
 * dashboard at /dashboard (dashboard/router.ts: its own session, CSRF, CSP, 404 and error pages) →
 * the internal error page the gateway asks for its own refusals. Nothing else is served.
 */
export function createDashboardApp(deps: DashboardDeps, options: DashboardAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy);
  app.use(requestId);
  app.use(requestLog(deps.logger));
  app.use(helmet());
  // Path, query and headers before the router (422: NUL, unpaired surrogates), as the gateway checks.
  app.use(safeRequestTarget);
  app.use('/dashboard', dashboardRouter(deps));
  // A refusal before the dashboard's router (a malformed URL) as an HTML page, not JSON.
  app.use('/dashboard', dashboardErrorPage);
  app.get(ERROR_PAGE_PATH, internalErrorPage);
  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/plain').send('not found\n');
  });
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (isAppError(err) && err.status < 500) {
      res.status(err.status).type('text/plain').send(`${err.message}\n`);
      return;
    }
    res.locals.failure = err instanceof Error ? err : new Error(String(err));
    res.status(500).type('text/plain').send('internal error\n');
  });
  return app;
}
