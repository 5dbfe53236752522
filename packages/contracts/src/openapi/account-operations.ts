import { BalanceResponse, WhoAmIResponse } from '../account';
import type { ApiOperation } from './operation';

/** Account endpoints (spec §4.12; whoami is ours). */
export const accountOperations: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/api/account/whoami',
    operationId: 'whoAmI',
    summary: 'Identify the calling API key',
    tags: ['account'],
    auth: { kind: 'key', scopes: [] },
    success: {
      status: 200,
      description: 'The client and scopes of the presented key.',
      schema: WhoAmIResponse,
    },
    errors: [401, 500, 503],
  },
  {
    method: 'get',
    path: '/api/account/balance',
    operationId: 'getBalance',
    summary: 'Wallet balance and spend controls',
    description: 'Balance, open holds, spend in the current UTC calendar month, spend cap and what remains.',
    tags: ['account'],
    auth: { kind: 'key', scopes: ['billing:read'] },
    success: { status: 200, description: 'Wallet and spend controls.', schema: BalanceResponse },
    errors: [401, 403, 500, 503],
  },
];
