import {
  buildOpenApiDocument,
  CONTRACT_DEPRECATIONS,
  type ContractDeprecation,
  type ReadinessResponse,
} from '@svc/contracts';
import { reverseProxy, type UpstreamTarget, upstreamErrorPage } from '@svc/http-kit';
import type { Logger } from '@svc/log';
import express, { type Express } from 'express';
import helmet from 'helmet';
import {
  DEFAULT_BODY_GRACE_MS,
  DEFAULT_BODY_MIN_BYTES_PER_SECOND,
  DEFAULT_CRT_RUN_WAIT_MS,
  DEFAULT_JSON_BODY_LIMIT,
  DEFAULT_MCP_RUN_WAIT_MS,
} from './env';
import type { KeyVerifier } from './middleware/auth';
import { type BodyRateOptions, bodyRate } from './middleware/body-rate';
import { checkDeprecations, contractHeaders } from './middleware/contract-headers';
import { errorHandler } from './middleware/errors';
import { observeRequests, type RequestObserver } from './middleware/metrics';
import { notFound } from './middleware/not-found';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { safeRequestTarget } from './middleware/safe-input';
import type { GatewayRateLimiter } from './rate-limit/rate-limiter';
import { createRouteKit } from './route-kit';
import { type ContractFiles, readContractFiles } from './routes/contract';
import { type GatewayServices, gatewayRoutes } from './routes/gateway-routes';
import type { Route } from './routing/route';
import { createRouting, streamsBody } from './routing/serve-routes';

/** `trust proxy` as express takes it: off, on, a hop count, or addresses/subnets of trusted proxies. */
export type TrustProxy = boolean | number | string;

/** The services the routes call (GatewayServices), and how the app around them is set up. */
export interface AppDeps extends GatewayServices {
  readonly logger: Logger;
  /** Verifies API keys (@svc/auth ApiKeyStore). */
  readonly keys: KeyVerifier;
  /** PUBLIC_BASE_URL; unset: links are built from each request's own origin (public-base-url.ts). */
  readonly publicBaseUrl?: string;
  /** CRT_RUN_WAIT_MS: ms a crt run request waits for the run before answering 202 (default 55,000). */
  readonly crtRunWaitMs?: number;
  /** Redis + auth database checks for /readyz. */
  readonly readiness: () => Promise<ReadinessResponse>;
  /** Records each request in the duration histogram; omitted in tests that do not look at metrics. */
  readonly observeRequest?: RequestObserver;
  /** JSON_BODY_LIMIT, bytes or a size such as "1mb" (default). */
  readonly jsonBodyLimit?: string;
  /**
   * BODY_GRACE_MS and BODY_MIN_BYTES_PER_SECOND: the pace under which a request body is cut with 408
   * (middleware/body-rate.ts; default 20 s, then 500 bytes/s). The upload PUT is never cut by it.
   */
  readonly bodyRate?: Pick<BodyRateOptions, 'graceMs' | 'minBytesPerSecond'>;
  /** TRUST_PROXY (default off: X-Forwarded-* are ignored unless a proxy is known to set them). */
  readonly trustProxy?: TrustProxy;
  /** ms since the epoch; default now. */
  readonly startedAt?: number;
  /** Defaults to buildOpenApiDocument(). */
  readonly openApiDocument?: object;
  /** GET /contract/manifest.json and /contract/changelog.json; default: the committed files, read at start. */
  readonly contractFiles?: ContractFiles;
  /** MCP_ALLOWED_HOSTS / MCP_ALLOWED_ORIGINS (decisions M3; unset: loopback + PUBLIC_BASE_URL). */
  readonly mcpAllowedHosts?: readonly string[] | undefined;
  readonly mcpAllowedOrigins?: readonly string[] | undefined;
  /** MCP_RUN_WAIT_MS: ms svc_tool_run waits for a run (default 25,000; decisions M5). */
  readonly mcpRunWaitMs?: number;
  /** Rate limits (README "Rate limits"; main.ts builds it over Redis); omitted: none (tests). */
  readonly rateLimiter?: GatewayRateLimiter;
  /**
   * The dashboard process's HTTP server (DASHBOARD_URL, its DATA_PORT): `/dashboard` is proxied to
   * it on this origin (issue 24 item 3); omitted: no dashboard (API-only tests).
   */
  readonly dashboard?: UpstreamTarget;
  /** Routes of operations besides the contract's (tests mount a JSON-body route; none in production). */
  readonly extraRoutes?: readonly Route[];
  /**
   * Deprecated contract elements (element id → since, sunset, replacement, link); default
   * CONTRACT_DEPRECATIONS (empty today). Checked here: a bad entry fails the start (decisions CD4).
   */
  readonly deprecations?: Readonly<Record<string, ContractDeprecation>>;
}

export const SERVICE_NAME = 'gateway';

/**
 * The gateway's express app, with every dependency injected so tests build it without a network.
 * Order matters: the request is matched to its operation first (routing/serve-routes.ts: what the
 * headers, limits and checks below read), the contract headers next (every answer carries
 * Svc-Contract-Version), request id (every later line and error carries it), then metrics and the
 * request log, security headers, the body pace watch (408 for a body that drips), the rate limit,
 * the safe-input check, the routes (each derived from its operation: auth, JSON body, parsing), and
 * last 404 and the error mapper, which turns everything (ours, express's, body-parser's) into an
 * ErrorResponse.
 */
export function createApp(deps: AppDeps): Express {
  const jsonBodyLimit = deps.jsonBodyLimit ?? DEFAULT_JSON_BODY_LIMIT;
  const deprecations = checkDeprecations(deps.deprecations ?? CONTRACT_DEPRECATIONS);
  const kit = createRouteKit({
    keys: deps.keys,
    jsonBodyLimit,
    publicBaseUrl: deps.publicBaseUrl,
    rateLimiter: deps.rateLimiter,
  });
  const routes: Route[] = [
    ...Object.values(
      gatewayRoutes({
        service: SERVICE_NAME,
        logger: deps.logger,
        startedAt: deps.startedAt ?? Date.now(),
        readiness: deps.readiness,
        openApiDocument: deps.openApiDocument ?? buildOpenApiDocument(),
        contractFiles: deps.contractFiles ?? readContractFiles(),
        catalog: deps.catalog,
        wallet: deps.wallet,
        orchestrator: deps.orchestrator,
        uploads: deps.uploads,
        vault: deps.vault,
        uploadsData: deps.uploadsData,
        runWaiter: deps.runWaiter,
        crtRunWaitMs: deps.crtRunWaitMs ?? DEFAULT_CRT_RUN_WAIT_MS,
        mcpRunWaitMs: deps.mcpRunWaitMs ?? DEFAULT_MCP_RUN_WAIT_MS,
        mcpAllowedHosts: deps.mcpAllowedHosts,
        mcpAllowedOrigins: deps.mcpAllowedOrigins,
        publicBaseUrl: deps.publicBaseUrl,
        rateLimiter: deps.rateLimiter,
        deprecations,
      }),
    ),
    ...(deps.extraRoutes ?? []),
  ];
  const routing = createRouting(routes, kit);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ?? false);

  // First: which operation the request is for (nothing is read or answered yet).
  app.use(routing.match);
  // Svc-Contract-Version (and a deprecated operation's headers) on every answer, errors too.
  app.use(contractHeaders(deprecations));
  app.use(requestId);
  if (deps.observeRequest) app.use(observeRequests(deps.observeRequest));
  app.use(requestLog(deps.logger));
  app.use(helmet());
  // A body's pace is watched from its first moment, whatever answers it (decisions I7): after the
  // headers above, so a 408 carries them too.
  app.use(
    bodyRate({
      graceMs: deps.bodyRate?.graceMs ?? DEFAULT_BODY_GRACE_MS,
      minBytesPerSecond: deps.bodyRate?.minBytesPerSecond ?? DEFAULT_BODY_MIN_BYTES_PER_SECOND,
      // The upload PUT streams its body to the uploads service, whose idle timeout and PUT deadline
      // are that body's clock (decisions U10, U11).
      exempt: (_req, res) => streamsBody(res.locals.operation),
    }),
  );
  // Before anything that does work for the request: classify it, spend per-address budgets here.
  if (deps.rateLimiter) app.use(deps.rateLimiter.classify);
  // Path, query and headers before any router (422: NUL, unpaired surrogates; safe-input.ts).
  app.use(safeRequestTarget);
  // The dashboard is its own process: its pages stream through as they are (after the checks
  // above, which every request of this origin gets: the per-address budget, the safe path).
  if (deps.dashboard !== undefined) app.use('/dashboard', reverseProxy(deps.dashboard));

  // Every operation of the contracts (routes/gateway-routes.ts), from the match made first.
  app.use(routing.serve);
  // A refusal of the checks above under /dashboard (rate limit, unsafe path) as the dashboard's own
  // HTML error page, not JSON (decisions DB11).
  if (deps.dashboard !== undefined) app.use('/dashboard', upstreamErrorPage(deps.dashboard));

  app.use(notFound);
  app.use(errorHandler(jsonBodyLimit));
  return app;
}
