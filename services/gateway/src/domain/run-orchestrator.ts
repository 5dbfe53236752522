import type { Quote, RpcRequest, RpcResponse, RunReceiptResponse, RunRecord } from '@svc/contracts';

/** What the gateway sends to start a crt run (`orchestrator.startCrtRun`): input already parsed. */
export type StartCrtRun = RpcRequest<'orchestrator', 'startCrtRun'>;
/** The orchestrator's answer to a run start (crt or any other): the run (new or replayed) and its quote. */
export type StartedRun = RpcResponse<'orchestrator', 'startCrtRun'>;
/** `orchestrator.quote`: the raw client input of one capability; the orchestrator validates it. */
export type QuoteCapability = RpcRequest<'orchestrator', 'quote'>;
/** `orchestrator.startRun`: any capability but crt, whose own route calls startCrtRun. */
export type StartRun = RpcRequest<'orchestrator', 'startRun'>;
/** `orchestrator.cancelRun`'s answer: `cancelled` (it was queued/retrying) or `cancel_requested` (running). */
export type CancelledRun = RpcResponse<'orchestrator', 'cancelRun'>;

/**
 * The orchestrator as the routes see it. main.ts adapts the `orchestrator` RPC client; unit tests
 * pass an in-memory fake. Errors are AppErrors and pass through unchanged: 404 for an unknown
 * capability, quote or run (another client's run or quote reads the same as a missing one), 409
 * for a blocked execution mode, a used or expired quote and a finished run on cancel, 422 for
 * input and idempotency problems, 402 when the wallet cannot hold the price, 503 when the
 * orchestrator (or the wallet behind it) does not answer.
 */
export interface RunOrchestrator {
  startCrtRun(request: StartCrtRun): Promise<StartedRun>;
  getRun(clientId: string, runId: string): Promise<RunRecord>;
  quote(request: QuoteCapability): Promise<Quote>;
  startRun(request: StartRun): Promise<StartedRun>;
  cancelRun(clientId: string, runId: string): Promise<CancelledRun>;
  receipt(clientId: string, runId: string): Promise<RunReceiptResponse>;
}
