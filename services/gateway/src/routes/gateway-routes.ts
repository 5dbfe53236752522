import type {
  ApiOperationById,
  ApiOperationId,
  ContractDeprecations,
  ReadinessResponse,
} from '@svc/contracts';
import type { UploadsDataTarget } from '@svc/http-kit';
import type { Logger } from '@svc/log';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import type { RunWaiting } from '../domain/run-waiter';
import type { UploadsService } from '../domain/uploads-service';
import type { VaultService } from '../domain/vault-service';
import { mcpRoutes } from '../mcp/mcp-router';
import type { CatalogReader, WalletReader } from '../ports';
import type { GatewayRateLimiter } from '../rate-limit/rate-limiter';
import type { Route } from '../routing/route';
import { accountRoutes } from './account';
import { artifactRoutes } from './artifacts';
import { capabilityRoutes } from './capabilities';
import { capabilityRunRoutes } from './capability-runs';
import { type ContractFiles, contractRoutes } from './contract';
import { crtRunRoutes } from './crt-run';
import { healthRoutes } from './health';
import { openApiRoutes } from './openapi';
import { quoteRunRoutes } from './quote-run';
import { uploadRoutes } from './uploads';
import { vaultRoutes } from './vault';

/**
 * One route per operation of the contracts, under its operationId: an operation without a route, or
 * a route under another operation's name, does not compile (a new operation in the contracts is
 * served once its handler is written here).
 */
export type GatewayRoutes = { readonly [Id in ApiOperationId]: Route<ApiOperationById<Id>> };

/** The services the routes call (app.ts's AppDeps carries them in). */
export interface GatewayServices {
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
  /** Waits for a run to finish (RunWaiter, fed by `run.finished` and getRun polls). */
  readonly runWaiter: RunWaiting;
}

/** What the routes serve with (app.ts passes its dependencies on). */
export interface RouteDeps extends GatewayServices {
  readonly service: string;
  readonly logger: Logger;
  readonly startedAt: number;
  readonly readiness: () => Promise<ReadinessResponse>;
  readonly openApiDocument: object;
  readonly contractFiles: ContractFiles;
  readonly crtRunWaitMs: number;
  readonly mcpRunWaitMs: number;
  readonly mcpAllowedHosts?: readonly string[] | undefined;
  readonly mcpAllowedOrigins?: readonly string[] | undefined;
  readonly publicBaseUrl?: string | undefined;
  readonly rateLimiter?: GatewayRateLimiter | undefined;
  readonly deprecations: ContractDeprecations;
}

export function gatewayRoutes(deps: RouteDeps): GatewayRoutes {
  return {
    ...healthRoutes({ service: deps.service, startedAt: deps.startedAt, readiness: deps.readiness }),
    ...openApiRoutes(deps.openApiDocument),
    ...contractRoutes(deps.contractFiles),
    ...capabilityRoutes(deps.catalog),
    ...quoteRunRoutes(deps.orchestrator, deps.runWaiter),
    ...crtRunRoutes(deps.orchestrator, deps.runWaiter, { waitMs: deps.crtRunWaitMs }),
    ...capabilityRunRoutes(deps.orchestrator, deps.runWaiter),
    ...uploadRoutes(deps.uploads, deps.uploadsData),
    ...artifactRoutes(deps.orchestrator, deps.uploads, deps.uploadsData),
    ...accountRoutes(deps.wallet),
    // The vault (spec §4.15-§4.20); no MCP tools: the spec's tool list has none (decisions VL4).
    ...vaultRoutes(deps.vault),
    // Streamable HTTP MCP (spec §4.21): the same services as the REST routes, one tool per twin.
    ...mcpRoutes({
      logger: deps.logger,
      allowedHosts: deps.mcpAllowedHosts,
      allowedOrigins: deps.mcpAllowedOrigins,
      publicBaseUrl: deps.publicBaseUrl,
      rateLimiter: deps.rateLimiter,
      deprecations: deps.deprecations,
      services: {
        catalog: deps.catalog,
        wallet: deps.wallet,
        orchestrator: deps.orchestrator,
        uploads: deps.uploads,
        runWaiter: deps.runWaiter,
        runWaitMs: deps.mcpRunWaitMs,
      },
    }),
  };
}
