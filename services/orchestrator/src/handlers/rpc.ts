import {
  type Bus,
  type RpcCatalog,
  type RpcClient,
  type RpcServer,
  type ServeRpcOptions,
  type ServiceHandlers,
  serveRpc,
} from '@svc/bus';
import type { PrismaClient } from '@svc/db';
import type { Logger } from '@svc/log';
import { getRunForClient } from '../domain/get-run';
import { type StartRunDeps, startCrtRun } from '../domain/start-run';
import { crtJobEnqueuer } from './bus-ports';

/** ms added to the wallet's RPC timeout to bound the run transaction (insert, update, pool wait). */
const TRANSACTION_MARGIN_MS = 5_000;

export interface OrchestratorRpcDeps {
  prisma: PrismaClient;
  /** Where runs are queued (`capability.crt`). */
  bus: Bus;
  /** `rpc.wallet` client: issues each run's quote. */
  wallet: RpcClient<RpcCatalog['wallet']>;
  /** ms: the wallet client's timeout (RPC_TIMEOUT_MS); the run transaction outlives it by a margin. */
  walletTimeoutMs: number;
  logger: Logger;
}

/**
 * `rpc.orchestrator` methods (ping is answered by serveRpc itself). Transport only: requests arrive
 * parsed against rpcCatalog (StartCrtRunRequest, with CrtInput's defaults applied), AppErrors
 * (404, 409, 422, 503) travel back to the gateway as themselves.
 */
export function orchestratorHandlers(deps: OrchestratorRpcDeps): ServiceHandlers<'orchestrator'> {
  const startDeps: StartRunDeps = {
    prisma: deps.prisma,
    issueQuote: (request) => deps.wallet.call('issueQuote', request),
    enqueueCrt: crtJobEnqueuer(deps.bus),
    logger: deps.logger,
    transactionTimeoutMs: deps.walletTimeoutMs + TRANSACTION_MARGIN_MS,
  };
  return {
    startCrtRun: (request) =>
      startCrtRun(startDeps, {
        clientId: request.client_id,
        input: request.input,
        quoteId: request.quote_id,
        clientType: request.client_type,
        idempotencyKey: request.idempotency_key,
      }),
    getRun: ({ client_id, run_id }) => getRunForClient(deps.prisma, client_id, run_id),
  };
}

export function serveOrchestratorRpc(deps: OrchestratorRpcDeps, options: ServeRpcOptions = {}): RpcServer {
  return serveRpc(deps.bus, 'orchestrator', orchestratorHandlers(deps), options);
}
