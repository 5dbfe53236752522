import { SpendDiagnosticsQuery, UsageStatementQuery, type WhoAmIResponse } from '@svc/contracts';
import { Router } from 'express';
import { authOf } from '../locals';
import type { createRequireAuth } from '../middleware/auth';
import { defineRoute } from '../middleware/method-not-allowed';
import { noStore } from '../middleware/no-store';
import { parseRequest } from '../middleware/validate';
import type { WalletReader } from '../ports';

/**
 * Account endpoints (spec §4.12-§4.14; whoami is ours). Mounted at /api/account. Money is private
 * to its client and changes with every run: every answer is `no-store`.
 */
export function accountRouter(
  requireAuth: ReturnType<typeof createRequireAuth>,
  wallet: WalletReader,
): Router {
  const router = Router();

  defineRoute(router, '/whoami', {
    get: [
      noStore,
      requireAuth(),
      (_req, res) => {
        // Answered from the verified key itself: no bus hop.
        const auth = authOf(res);
        const body: WhoAmIResponse = {
          ok: true,
          client_id: auth.clientId,
          client_name: auth.clientName,
          key_id: auth.keyId,
          scopes: [...auth.scopes],
        };
        res.json(body);
      },
    ],
  });

  defineRoute(router, '/balance', {
    get: [
      noStore,
      requireAuth('billing:read'),
      async (_req, res) => {
        const body = await wallet.balance(authOf(res).clientId);
        res.json(body);
      },
    ],
  });

  defineRoute(router, '/usage-statement', {
    get: [
      noStore,
      requireAuth('billing:read'),
      async (req, res) => {
        // Strict (D2): a typo such as `month=11` is a 422, not a silent default period.
        const query = parseRequest(UsageStatementQuery, req.query, 'query');
        res.json(await wallet.usageStatement({ ...query, client_id: authOf(res).clientId }));
      },
    ],
  });

  defineRoute(router, '/spend-diagnostics', {
    get: [
      noStore,
      requireAuth('billing:read'),
      async (req, res) => {
        parseRequest(SpendDiagnosticsQuery, req.query, 'query');
        res.json(await wallet.spendDiagnostics(authOf(res).clientId));
      },
    ],
  });

  return router;
}
