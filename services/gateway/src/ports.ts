import type {
  BalanceResponse,
  DailySpendResponse,
  DescribeCapabilityResponse,
  ListCapabilitiesQuery,
  ListCapabilitiesResponse,
  RpcRequest,
  SpendDiagnosticsResponse,
  UsageStatementResponse,
} from '@svc/contracts';

/**
 * The registry and the wallet as the REST routes and the MCP tools see them, in a module of their own
 * so both import the port rather than each other (main.ts adapts the RPC clients; unit tests pass
 * in-memory fakes). The orchestrator's and the uploads service's ports are domain/run-orchestrator.ts
 * and domain/uploads-service.ts.
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
 * The wallet as the routes see it (main.ts adapts the `wallet` RPC client). Errors pass through:
 * 422 for a period the wallet refuses (`from` not before `to`, longer than USAGE_MAX_SPAN_MS), 503
 * when it does not answer.
 */
export interface WalletReader {
  balance(clientId: string): Promise<BalanceResponse>;
  usageStatement(request: UsageStatementRequest): Promise<UsageStatementResponse>;
  spendDiagnostics(clientId: string): Promise<SpendDiagnosticsResponse>;
  /** `wallet.dailySpend`: charged runs per UTC day over the last `days` (1 to 90) days, oldest first. */
  dailySpend(clientId: string, days: number): Promise<DailySpendResponse>;
}
