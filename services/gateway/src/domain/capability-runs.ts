import type { QuoteRequest, QuoteResponse, RunRequest } from '@svc/contracts';
import { type RunOrchestrator, type StartedRun, startRunFailure } from './run-orchestrator';

/**
 * Quote and start of any capability (spec §4.3, §4.4), shared by the REST routes (quote-run.ts)
 * and the MCP tools `svc_tool_quote` / `svc_tool_run`: one orchestrator call each, with the request
 * already parsed against its contract. Everything the capability decides (404, 409, 422, 402) is
 * the orchestrator's error, passed through.
 */
export async function quoteCapability(
  orchestrator: RunOrchestrator,
  clientId: string,
  slug: string,
  request: QuoteRequest,
): Promise<QuoteResponse> {
  const quote = await orchestrator.quote({
    client_id: clientId,
    slug,
    input: request.input,
    client_type: request.client_type,
  });
  return { ok: true, quote };
}

/**
 * Starts a run of any capability but crt (whose flow is crt-run.ts). Whether a key and a quote are
 * required depends on the price, which only the orchestrator knows (422 naming the price when missing).
 * A 503 says the run may have been recorded and how to retry (startRunFailure).
 */
export function startCapabilityRun(
  orchestrator: RunOrchestrator,
  clientId: string,
  slug: string,
  request: RunRequest,
  idempotencyKey: string | undefined,
): Promise<StartedRun> {
  return orchestrator
    .startRun({
      client_id: clientId,
      slug,
      input: request.input,
      client_type: request.client_type,
      ...(request.quote_id === undefined ? {} : { quote_id: request.quote_id }),
      ...(idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey }),
    })
    .catch((err: unknown) => {
      throw startRunFailure(err, idempotencyKey);
    });
}
