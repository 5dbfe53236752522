import type { ServiceClient } from '@svc/bus';
import type {
  DescribeCapabilityResponse,
  ListCapabilitiesQuery,
  ListCapabilitiesResponse,
  PlatformCatalog,
  RpcRequest,
} from '@svc/contracts';

/**
 * The registry and the wallet as the REST routes and the MCP tools see them, in a module of their own
 * so both import the port rather than each other. A service's port is the methods used of its typed
 * client (@svc/bus serviceClient, derived from the catalog; main.ts builds the clients). The
 * orchestrator's, the uploads service's and the vault's ports are in domain/; the registry is loaded
 * by the catalog cache, whose loaders have its client's shape (catalog-cache.ts).
 */

/** The catalog as the routes see it: the cache in front of the registry's RPC (catalog-cache.ts). */
export interface CatalogReader {
  search(query: ListCapabilitiesQuery): Promise<ListCapabilitiesResponse>;
  describe(slug: string): Promise<DescribeCapabilityResponse>;
  /** s: how long clients may reuse an answer (never longer than the gateway keeps it). */
  readonly maxAgeSeconds: number;
}

/** `wallet.usageStatement`: the parsed query plus whose statement it is. */
export type UsageStatementRequest = RpcRequest<'wallet', 'usageStatement'>;

/**
 * The wallet as the routes see it. Errors pass through: 422 for a period the wallet refuses (`from`
 * not before `to`, longer than USAGE_MAX_SPAN_MS), 503 when it does not answer.
 */
export type WalletReader = Pick<
  ServiceClient<PlatformCatalog, 'wallet'>,
  'balance' | 'usageStatement' | 'spendDiagnostics'
>;
