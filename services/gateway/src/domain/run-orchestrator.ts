import type { ServiceClient } from '@svc/bus';
import type { PlatformCatalog, RpcResponse } from '@svc/contracts';
import { isAppError, ServiceUnavailableError } from '@svc/errors';

/** The orchestrator's answer to a run start (crt or any other): the run (new or replayed) and its quote. */
export type StartedRun = RpcResponse<'orchestrator', 'startCrtRun'>;
/** `orchestrator.cancelRun`'s answer: `cancelled` (it was queued/retrying) or `cancel_requested` (running). */
export type CancelledRun = RpcResponse<'orchestrator', 'cancelRun'>;

/**
 * The orchestrator as the routes and the MCP tools call it: the methods they use of its typed client
 * (@svc/bus serviceClient, derived from the catalog; main.ts builds it). Errors are AppErrors and
 * pass through unchanged: 404 for an unknown capability, quote or run (another client's run or quote
 * reads the same as a missing one), 409 for a blocked execution mode, a used or expired quote and a
 * finished run on cancel, 422 for input and idempotency problems (and for a list cursor that is not
 * a `next_cursor`), 402 when the wallet cannot hold the price, 503 when the orchestrator (or the
 * wallet or upload service behind it) does not answer; a start's 503 goes through startRunFailure.
 */
export type RunOrchestrator = Pick<
  ServiceClient<PlatformCatalog, 'orchestrator'>,
  'startCrtRun' | 'startRun' | 'quote' | 'getRun' | 'cancelRun' | 'receipt' | 'listRuns'
>;

/** What a start-run 503 adds when the words do not yet say how to retry (issue 15 finding 3). */
const RECORDED_HINT = /retry with the same Idempotency-Key|retry the same request/;

/**
 * The error a client sees when starting a run failed with a 503: whether the gateway's own call to
 * the orchestrator found no answer (`orchestrator service did not answer within … ms`) or the
 * orchestrator's words name the wallet or upload service that did not answer, the run may have
 * been recorded before the failure, and may be charged: the answer says so and how to retry
 * without starting a second run (the same Idempotency-Key replays it). The orchestrator's own words
 * are kept when they already say it. Every other error passes through unchanged.
 */
export function startRunFailure(err: unknown, idempotencyKey: string | undefined): unknown {
  if (!isAppError(err) || err.status !== 503 || RECORDED_HINT.test(err.message)) return err;
  const advice =
    idempotencyKey === undefined
      ? 'the run may have been recorded; this request had no Idempotency-Key, so send one to retry without starting a second run'
      : 'the run may have been recorded: retry with the same Idempotency-Key';
  return new ServiceUnavailableError(`${err.message}; ${advice}`, { cause: err });
}
