import type { CrtRunRequest, RunRecord } from '@svc/contracts';
import type { CrtRunOutcome } from './crt-run-answer';
import type { RunOrchestrator } from './run-orchestrator';
import { startCrtRun } from './run-start';
import { waitForRun } from './run-wait';
import type { RunWaiting } from './run-waiter';

export interface CrtRunParams {
  readonly clientId: string;
  readonly request: CrtRunRequest;
  readonly idempotencyKey: string | undefined;
  /** ms to wait for the run before giving up the wait (CRT_RUN_WAIT_MS on REST, MCP_RUN_WAIT_MS on MCP). */
  readonly waitMs: number;
  /** Stops waiting early (the client went away). */
  readonly signal?: AbortSignal | undefined;
  /** Status changes while waiting (MCP progress notifications). */
  readonly onChange?: ((run: RunRecord) => Promise<void>) | undefined;
}

/**
 * The crt flow (design "Flow" steps 1, 2 and 5), shared by `POST /api/capabilities/crt/run` and the
 * MCP tool `svc_tool_run`: the orchestrator records and queues the run, then the caller waits for it
 * (RunWaiter) up to `waitMs`. crtRunAnswer() turns the outcome into the answer.
 */
export async function runCrt(
  orchestrator: RunOrchestrator,
  waiter: RunWaiting,
  params: CrtRunParams,
): Promise<CrtRunOutcome> {
  const { clientId, request, idempotencyKey } = params;
  const started = await startCrtRun(orchestrator, { clientId, request, idempotencyKey });
  const run = await waitForRun(waiter, clientId, started.run, {
    timeoutMs: params.waitMs,
    signal: params.signal,
    onChange: params.onChange,
    reload: (owner, runId) => orchestrator.getRun({ client_id: owner, run_id: runId }),
  });
  return { replay: started.replay, quote: started.quote, run, idempotencyKey };
}
