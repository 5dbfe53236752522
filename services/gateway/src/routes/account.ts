import { apiOperation } from '@svc/contracts';
import type { WalletReader } from '../ports';
import { route } from '../routing/route';

/**
 * Account endpoints (spec §4.12-§4.14; whoami is ours). Money is private to its client and changes
 * with every run: every answer is `no-store` (as every credentialed one). Usage statement: a typo
 * such as `month=11` is a 422, not a silent default period (D2); spend diagnostics take no query.
 */
export function accountRoutes(wallet: WalletReader) {
  return {
    // Answered from the verified key itself: no bus hop.
    whoAmI: route(apiOperation('whoAmI'), ({ auth }) => ({
      status: 200,
      body: {
        ok: true,
        client_id: auth.clientId,
        client_name: auth.clientName,
        key_id: auth.keyId,
        scopes: [...auth.scopes],
      },
    })),
    getBalance: route(apiOperation('getBalance'), async ({ auth }) => ({
      status: 200,
      body: await wallet.balance({ client_id: auth.clientId }),
    })),
    getUsageStatement: route(apiOperation('getUsageStatement'), async ({ auth, query }) => ({
      status: 200,
      body: await wallet.usageStatement({ ...query, client_id: auth.clientId }),
    })),
    getSpendDiagnostics: route(apiOperation('getSpendDiagnostics'), async ({ auth }) => ({
      status: 200,
      body: await wallet.spendDiagnostics({ client_id: auth.clientId }),
    })),
  };
}
