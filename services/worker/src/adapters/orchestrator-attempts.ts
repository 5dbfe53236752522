import type { RpcClient } from '@svc/bus';
import type { RpcCatalog, RpcRequestInput, RpcResponse } from '@svc/contracts';

export type ClaimRequest = RpcRequestInput<'orchestrator', 'claimAttempt'>;
export type ClaimAnswer = RpcResponse<'orchestrator', 'claimAttempt'>;
export type ReportRequest = RpcRequestInput<'orchestrator', 'reportRun'>;

/**
 * The worker's two calls to the orchestrator (issue 15): may this job run the run now, and how the
 * attempt ended. Each throws when the orchestrator does not answer (503) or fails (500): the caller
 * decides how long to keep asking.
 */
export interface AttemptPort {
  claim(request: ClaimRequest): Promise<ClaimAnswer>;
  report(report: ReportRequest): Promise<{ applied: boolean }>;
}

/** The AttemptPort on `rpc.orchestrator` (`claimAttempt`, `reportRun`). */
export function orchestratorAttempts(orchestrator: RpcClient<RpcCatalog['orchestrator']>): AttemptPort {
  return {
    claim: (request) => orchestrator.call('claimAttempt', request),
    report: (report) => orchestrator.call('reportRun', report),
  };
}
