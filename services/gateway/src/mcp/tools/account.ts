import { BalanceResponse } from '@svc/contracts';
import { z } from 'zod';
import { defineTool } from '../tool-kit';
import { READ_ONLY } from './args';

/** `svc_account_balance` = GET /api/account/balance (spec §4.12), the same wallet RPC. */
export const balanceTool = defineTool({
  name: 'svc_account_balance',
  title: 'Account balance and spend cap',
  description:
    'The balance, held and spent amounts (USD decimal strings), the monthly spend cap and what remains. ' +
    'Wallet and spend-cap failures are hard stops: show the figures to the user instead of retrying.',
  scope: 'billing:read',
  // No arguments; any given are refused with a message naming them, so an agent's slip is visible.
  input: z.strictObject({}),
  output: BalanceResponse,
  annotations: READ_ONLY,
  call: async (_args, context) => {
    const body = await context.services.wallet.balance(context.auth.clientId);
    return {
      summary: `balance ${body.balance_usd} USD, held ${body.held_usd}, remaining ${body.remaining_usd}`,
      body,
    };
  },
});
