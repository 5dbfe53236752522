import { QuoteRequest, QuoteResponse } from '@svc/contracts';
import { quoteCapability } from '../../domain/capability-runs';
import { defineTool } from '../tool-kit';
import { ClientTypeArg, SlugArg } from './args';

/** `svc_tool_quote` = POST /api/capabilities/{slug}/quote (spec §4.3): the same orchestrator call. */
export const quoteTool = defineTool({
  name: 'svc_tool_quote',
  title: 'Quote a capability run',
  description:
    'Step 3: prices `input` (built from the describe `input_schema`) and checks it against the balance ' +
    'and spend cap. Paid runs need a quote made just before the run: pass `quote.quote_id` and exactly ' +
    'the same input to svc_tool_run (a quote is valid 15 minutes and starts one run). Capabilities whose ' +
    'machine_run_status is describe_only, missing or unknown are refused. Creates a quote record.',
  scope: 'capabilities:quote',
  input: QuoteRequest.extend({ slug: SlugArg, client_type: ClientTypeArg }),
  output: QuoteResponse,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  call: async ({ slug, ...request }, context) => {
    const body = await quoteCapability(context.services.orchestrator, context.auth.clientId, slug, request);
    const { quote } = body;
    const cleared = quote.wallet_clearance.cleared ? 'cleared' : 'NOT cleared';
    return {
      summary: `quote ${quote.quote_id} for ${slug}: ${quote.price_usd} USD, ${cleared}; expires ${quote.expires_at}`,
      body,
    };
  },
});
