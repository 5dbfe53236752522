import { buildOpenApiDocument, type ReadinessResponse } from '@svc/contracts';
import type { Logger } from '@svc/log';
import express, { type Express, type Router } from 'express';
import helmet from 'helmet';
import type { GatewayHandler } from './locals';
import { createRequireAuth, type KeyVerifier } from './middleware/auth';
import { errorHandler } from './middleware/errors';
import { observeRequests, type RequestObserver } from './middleware/metrics';
import { notFound } from './middleware/not-found';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { createJsonBody } from './middleware/validate';
import { accountRouter, type WalletReader } from './routes/account';
import { type CatalogReader, capabilitiesRouter } from './routes/capabilities';
import { healthRouter } from './routes/health';
import { openApiRouter } from './routes/openapi';

/** `trust proxy` as express takes it: off, on, a hop count, or addresses/subnets of trusted proxies. */
export type TrustProxy = boolean | number | string;

/** A router and where it is mounted. Each resource is one mount; MCP (`/mcp`) joins as another. */
export interface RouteMount {
  readonly path: string;
  readonly router: Router;
}

/** What resource routers get from the app: the shared auth and JSON-body middleware. */
export interface RouteKit {
  readonly requireAuth: ReturnType<typeof createRequireAuth>;
  /** Put at the head of a route that takes a JSON body (415/413/400 handling, JSON_BODY_LIMIT). */
  readonly jsonBody: readonly GatewayHandler[];
}

export interface AppDeps {
  readonly logger: Logger;
  /** Verifies API keys (@svc/auth ApiKeyStore). */
  readonly keys: KeyVerifier;
  /** Search/describe through the catalog cache. */
  readonly catalog: CatalogReader;
  /** `wallet.balance` over RPC. */
  readonly wallet: WalletReader;
  /** Redis + auth database checks for /readyz. */
  readonly readiness: () => Promise<ReadinessResponse>;
  /** Records each request in the duration histogram; omitted in tests that do not look at metrics. */
  readonly observeRequest?: RequestObserver;
  /** JSON_BODY_LIMIT, bytes or a size such as "1mb" (default). */
  readonly jsonBodyLimit?: string;
  /** TRUST_PROXY (default off: X-Forwarded-* are ignored unless a proxy is known to set them). */
  readonly trustProxy?: TrustProxy;
  /** ms since the epoch; default now. */
  readonly startedAt?: number;
  /** Defaults to buildOpenApiDocument(). */
  readonly openApiDocument?: object;
  /** More mounts after the built-in ones (tests use it for a JSON-body route; none in production yet). */
  readonly extraRoutes?: (kit: RouteKit) => readonly RouteMount[];
}

export const SERVICE_NAME = 'gateway';
const DEFAULT_JSON_BODY_LIMIT = '1mb';

/**
 * The gateway's express app, with every dependency injected so tests build it without a network.
 * Order matters: request id first (every later line and error carries it), then metrics and the
 * request log, security headers, the routers (JSON bodies are parsed per route: RouteKit.jsonBody),
 * and last 404 and the error mapper, which turns everything (ours, express's, body-parser's) into
 * an ErrorResponse.
 */
export function createApp(deps: AppDeps): Express {
  const jsonBodyLimit = deps.jsonBodyLimit ?? DEFAULT_JSON_BODY_LIMIT;
  const kit: RouteKit = {
    requireAuth: createRequireAuth(deps.keys),
    jsonBody: createJsonBody(jsonBodyLimit),
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ?? false);

  app.use(requestId);
  if (deps.observeRequest) app.use(observeRequests(deps.observeRequest));
  app.use(requestLog(deps.logger));
  app.use(helmet());

  const mounts: RouteMount[] = [
    {
      path: '/',
      router: healthRouter({
        service: SERVICE_NAME,
        startedAt: deps.startedAt ?? Date.now(),
        readiness: deps.readiness,
      }),
    },
    { path: '/', router: openApiRouter(deps.openApiDocument ?? buildOpenApiDocument()) },
    { path: '/api/capabilities', router: capabilitiesRouter(deps.catalog) },
    { path: '/api/account', router: accountRouter(kit.requireAuth, deps.wallet) },
    ...(deps.extraRoutes?.(kit) ?? []),
  ];
  for (const mount of mounts) app.use(mount.path, mount.router);

  app.use(notFound);
  app.use(errorHandler(jsonBodyLimit));
  return app;
}
