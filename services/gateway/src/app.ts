import {
  buildOpenApiDocument,
  CONTRACT_DEPRECATIONS,
  type ContractDeprecation,
  type ReadinessResponse,
} from '@svc/contracts';
import type { Logger } from '@svc/log';
import express, { type Express, type Request } from 'express';
import helmet from 'helmet';
import type { DashboardOptions } from './dashboard/ports';
import { dashboardErrorPage, dashboardRouter } from './dashboard/router';
import type { RunOrchestrator } from './domain/run-orchestrator';
import type { RunWaiting } from './domain/run-waiter';
import type { UploadsService } from './domain/uploads-service';
import type { VaultService } from './domain/vault-service';
import {
  DEFAULT_BODY_GRACE_MS,
  DEFAULT_BODY_MIN_BYTES_PER_SECOND,
  DEFAULT_CRT_RUN_WAIT_MS,
  DEFAULT_JSON_BODY_LIMIT,
  DEFAULT_MCP_RUN_WAIT_MS,
} from './env';
import { mcpRouter } from './mcp/mcp-router';
import type { KeyVerifier } from './middleware/auth';
import { type BodyRateOptions, bodyRate } from './middleware/body-rate';
import { checkDeprecations, contractHeaders } from './middleware/contract-headers';
import { errorHandler } from './middleware/errors';
import { observeRequests, type RequestObserver } from './middleware/metrics';
import { notFound } from './middleware/not-found';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { safeRequestTarget } from './middleware/safe-input';
import type { CatalogReader, WalletReader } from './ports';
import type { GatewayRateLimiter } from './rate-limit/rate-limiter';
import { createRouteKit, type RouteKit, type RouteMount } from './route-kit';
import { accountRouter } from './routes/account';
import { artifactDownloadRouter, runArtifactsRouter } from './routes/artifacts';
import { capabilitiesRouter } from './routes/capabilities';
import { capabilityRunsRouter } from './routes/capability-runs';
import { type ContractFiles, contractRouter, readContractFiles } from './routes/contract';
import { crtRunRouter } from './routes/crt-run';
import { healthRouter } from './routes/health';
import { openApiRouter } from './routes/openapi';
import { quoteRunRouter } from './routes/quote-run';
import { capabilityUploadsRouter, uploadSessionRouter } from './routes/uploads';
import type { UploadsDataTarget } from './routes/uploads-data-proxy';
import { vaultRouter } from './routes/vault';

/** `trust proxy` as express takes it: off, on, a hop count, or addresses/subnets of trusted proxies. */
export type TrustProxy = boolean | number | string;

export interface AppDeps {
  readonly logger: Logger;
  /** Verifies API keys (@svc/auth ApiKeyStore). */
  readonly keys: KeyVerifier;
  /** Search/describe through the catalog cache. */
  readonly catalog: CatalogReader;
  /** `wallet.balance`, `wallet.usageStatement`, `wallet.spendDiagnostics` over RPC. */
  readonly wallet: WalletReader;
  /** `orchestrator.*` over RPC: runs (crt and the rest), quotes, cancel, receipts. */
  readonly orchestrator: RunOrchestrator;
  /** `uploads.*` over RPC: upload sessions, uploads, artifact manifests. */
  readonly uploads: UploadsService;
  /** `vault.*` over RPC: fields, extractions, fills, documents, audit (spec §4.15-§4.20). */
  readonly vault: VaultService;
  /** The uploads service's internal HTTP server (UPLOADS_URL): upload bytes and downloads stream through it. */
  readonly uploadsData: UploadsDataTarget;
  /** PUBLIC_BASE_URL; unset: links are built from each request's own origin (public-base-url.ts). */
  readonly publicBaseUrl?: string;
  /** Waits for a run to finish (RunWaiter, fed by `run.finished` and getRun polls). */
  readonly runWaiter: RunWaiting;
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
   * The developer dashboard at /dashboard (issue 18): accounts, sessions, the sign-in throttle, the
   * client's API keys and the `apikey.revoked` publisher; omitted: no dashboard (API-only tests).
   */
  readonly dashboard?: DashboardOptions;
  /** More mounts after the built-in ones (tests use it for a JSON-body route; none in production yet). */
  readonly extraRoutes?: (kit: RouteKit) => readonly RouteMount[];
  /**
   * Deprecated contract elements (element id → since, sunset, replacement, link); default
   * CONTRACT_DEPRECATIONS (empty today). Checked here: a bad entry fails the start (decisions CD4).
   */
  readonly deprecations?: Readonly<Record<string, ContractDeprecation>>;
}

export const SERVICE_NAME = 'gateway';

// Where the upload PUT and GET are mounted (spec §4.7).
const UPLOADS_PATH = '/api/capability-uploads';

/**
 * The upload PUT streams its body to the uploads service, whose idle timeout and PUT deadline are
 * that body's clock (decisions U10, U11): the gateway's minimum body pace does not apply to it.
 * Lowercased: express matches paths without regard to case.
 */
function isUploadPut(req: Request): boolean {
  return req.method === 'PUT' && req.path.toLowerCase().startsWith(`${UPLOADS_PATH}/`);
}

/**
 * The gateway's express app, with every dependency injected so tests build it without a network.
 * Order matters: the contract headers first (every answer carries Svc-Contract-Version), request id
 * next (every later line and error carries it), then metrics and the
 * request log, security headers, the body pace watch (408 for a body that drips), the routers (JSON
 * bodies are parsed per route: RouteKit.jsonBody),
 * and last 404 and the error mapper, which turns everything (ours, express's, body-parser's) into
 * an ErrorResponse.
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
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ?? false);

  // First: Svc-Contract-Version (and a deprecated operation's headers) on every answer, errors too.
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
      exempt: isUploadPut,
    }),
  );
  // Before anything that does work for the request: classify it, spend per-address budgets here.
  if (deps.rateLimiter) app.use(deps.rateLimiter.classify);
  // Path, query and headers before any router (422: NUL, unpaired surrogates; safe-input.ts).
  app.use(safeRequestTarget);

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
    { path: '/', router: contractRouter(deps.contractFiles ?? readContractFiles()) },
    // Before the discovery router: `/crt/run` is a path of its own (spec §4.5), not a `/:slug`.
    {
      path: '/api/capabilities',
      router: crtRunRouter(kit, deps.orchestrator, deps.runWaiter, {
        waitMs: deps.crtRunWaitMs ?? DEFAULT_CRT_RUN_WAIT_MS,
      }),
    },
    // `POST /{slug}/quote` and `POST /{slug}/run` for every other slug (spec §4.3, §4.4).
    { path: '/api/capabilities', router: quoteRunRouter(kit, deps.orchestrator) },
    // `POST /{slug}/upload-session` (spec §4.6).
    { path: '/api/capabilities', router: uploadSessionRouter(kit, deps.uploads) },
    { path: '/api/capabilities', router: capabilitiesRouter(deps.catalog) },
    { path: '/api/capability-runs', router: capabilityRunsRouter(kit, deps.orchestrator) },
    { path: '/api/capability-runs', router: runArtifactsRouter(kit, deps.orchestrator, deps.uploads) },
    // PUT (upload token, streamed) and GET of an upload (spec §4.7).
    { path: UPLOADS_PATH, router: capabilityUploadsRouter(kit, deps.uploads, deps.uploadsData) },
    { path: '/api/artifacts', router: artifactDownloadRouter(kit, deps.uploadsData) },
    { path: '/api/account', router: accountRouter(kit.requireAuth, deps.wallet) },
    // The vault (spec §4.15-§4.20); no MCP tools: the spec's tool list has none (decisions VL4).
    { path: '/api/vault', router: vaultRouter(kit, deps.vault) },
    // Streamable HTTP MCP (spec §4.21): the same services as the REST routes, one tool per twin.
    {
      path: '/mcp',
      router: mcpRouter(kit, {
        logger: deps.logger,
        keys: deps.keys,
        allowedHosts: deps.mcpAllowedHosts,
        allowedOrigins: deps.mcpAllowedOrigins,
        publicBaseUrl: deps.publicBaseUrl,
        rateLimiter: deps.rateLimiter,
        deprecations,
        services: {
          catalog: deps.catalog,
          wallet: deps.wallet,
          orchestrator: deps.orchestrator,
          uploads: deps.uploads,
          runWaiter: deps.runWaiter,
          runWaitMs: deps.mcpRunWaitMs ?? DEFAULT_MCP_RUN_WAIT_MS,
        },
      }),
    },
    // Server-rendered HTML with its own session, CSRF, CSP, 404 and error pages (dashboard/router.ts).
    ...(deps.dashboard === undefined
      ? []
      : [
          {
            path: '/dashboard',
            router: dashboardRouter({
              ...deps.dashboard,
              logger: deps.logger,
              catalog: deps.catalog,
              wallet: deps.wallet,
              orchestrator: deps.orchestrator,
              uploads: deps.uploads,
              vault: deps.vault,
              uploadsData: deps.uploadsData,
              publicBaseUrl: deps.publicBaseUrl,
            }),
          },
        ]),
    ...(deps.extraRoutes?.(kit) ?? []),
  ];
  for (const mount of mounts) app.use(mount.path, mount.router);
  // A refusal before the dashboard's router (rate limit, malformed URL) as an HTML page, not JSON.
  if (deps.dashboard !== undefined) app.use('/dashboard', dashboardErrorPage);

  app.use(notFound);
  app.use(errorHandler(jsonBodyLimit));
  return app;
}
