import { type ApiKeyStore, provisionClient } from '@svc/auth';
import type { CreateKeyArgs } from '../args';

// Written on the ledger line of --balance-usd so the origin of the money is visible in statements.
export const OPENING_BALANCE_NOTE = 'opening balance (admin CLI)';

export interface CreateKeyOutput {
  client_id: string;
  api_key: string;
}

/**
 * The key, its client and the wallet rows (account, spend cap, opening credit) in one transaction,
 * through @svc/auth's provisionClient: the same code the launcher's dev key and the test harness use
 * (architecture.md: the CLI is not a service and writes `auth` and `wallet` through @svc/db).
 */
export async function createKey(store: ApiKeyStore, args: CreateKeyArgs): Promise<CreateKeyOutput> {
  const created = await provisionClient(store, {
    clientName: args.clientName,
    scopes: args.scopes,
    label: args.label,
    balanceMicros: args.balanceMicros,
    spendCapMicros: args.spendCapMicros,
    balanceNote: OPENING_BALANCE_NOTE,
  });
  return { client_id: created.clientId, api_key: created.apiKey };
}
