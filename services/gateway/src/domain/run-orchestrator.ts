import type { RpcRequest, RpcResponse } from '@svc/bus';
import type { RunRecord } from '@svc/contracts';

/** What the gateway sends to start a crt run (`orchestrator.startCrtRun`): input already parsed. */
export type StartCrtRun = RpcRequest<'orchestrator', 'startCrtRun'>;
/** The orchestrator's answer: the run (new or replayed) and its quote. */
export type StartedRun = RpcResponse<'orchestrator', 'startCrtRun'>;

/**
 * The orchestrator as the run routes see it. main.ts adapts the `orchestrator` RPC client; unit tests
 * pass an in-memory fake. Errors are AppErrors: 404 for a run the client does not own (the same as a
 * missing one), 409/422 from idempotency and quote checks, 503 when the orchestrator does not answer.
 */
export interface RunOrchestrator {
  startCrtRun(request: StartCrtRun): Promise<StartedRun>;
  getRun(clientId: string, runId: string): Promise<RunRecord>;
}
