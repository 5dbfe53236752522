import type { QuoteRequest, QuoteResponse } from '@svc/contracts';
import type { RunOrchestrator } from './run-orchestrator';

/**
 * Quote of any capability (spec §4.3), shared by the REST route (quote-run.ts) and the MCP tool
 * `svc_tool_quote`: one orchestrator call, with the request already parsed against its contract.
 * Everything the capability decides (404, 409, 422) is the orchestrator's error, passed through.
 * Starting a run is run-start.ts.
 */
export async function quoteCapability(
  orchestrator: Pick<RunOrchestrator, 'quote'>,
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
