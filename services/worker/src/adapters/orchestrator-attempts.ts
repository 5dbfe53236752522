import type { ServiceClient } from '@svc/bus';
import type { PlatformCatalog, RpcRequestInput, RpcResponse } from '@svc/contracts';

export type ClaimRequest = RpcRequestInput<'orchestrator', 'claimAttempt'>;
export type ClaimAnswer = RpcResponse<'orchestrator', 'claimAttempt'>;
export type ReportRequest = RpcRequestInput<'orchestrator', 'reportRun'>;

/**
 * The worker's two calls to the orchestrator (issue 15): may this job run the run now
 * (`claimAttempt`), and how the attempt ended (`reportRun`). Each throws when the orchestrator does
 * not answer (503) or fails (500): the caller decides how long to keep asking.
 */
export type AttemptPort = Pick<ServiceClient<PlatformCatalog, 'orchestrator'>, 'claimAttempt' | 'reportRun'>;
