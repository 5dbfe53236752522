import { McpBalanceTool } from '@svc/contracts';
import { defineTool } from '../tool-kit';

/** `svc_account_balance` = GET /api/account/balance (spec §4.12), the same wallet RPC. */
export const balanceTool = defineTool({
  ...McpBalanceTool,
  call: async (_args, context) => {
    const body = await context.services.wallet.balance({ client_id: context.auth.clientId });
    return {
      summary: `balance ${body.balance_usd} USD, held ${body.held_usd}, remaining ${body.remaining_usd}`,
      body,
    };
  },
});
