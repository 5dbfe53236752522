import { McpQuoteTool } from '@svc/contracts';
import { quoteCapability } from '../../domain/capability-runs';
import { defineTool } from '../tool-kit';

/** `svc_tool_quote` = POST /api/capabilities/{slug}/quote (spec §4.3): the same orchestrator call. */
export const quoteTool = defineTool({
  ...McpQuoteTool,
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
