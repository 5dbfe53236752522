import type { BalanceResponse, WhoAmIResponse } from '@svc/contracts';
import { Router } from 'express';
import { authOf } from '../locals';
import type { createRequireAuth } from '../middleware/auth';
import { defineRoute } from '../middleware/method-not-allowed';

/** The wallet as the routes see it (main.ts adapts the `wallet.balance` RPC client). */
export interface WalletReader {
  balance(clientId: string): Promise<BalanceResponse>;
}

/** Account endpoints (spec §4.12; whoami is ours). Mounted at /api/account. */
export function accountRouter(
  requireAuth: ReturnType<typeof createRequireAuth>,
  wallet: WalletReader,
): Router {
  const router = Router();

  defineRoute(router, '/whoami', {
    get: [
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
        res.setHeader('Cache-Control', 'no-store');
        res.json(body);
      },
    ],
  });

  defineRoute(router, '/balance', {
    get: [
      requireAuth('billing:read'),
      async (_req, res) => {
        const body = await wallet.balance(authOf(res).clientId);
        res.setHeader('Cache-Control', 'no-store');
        res.json(body);
      },
    ],
  });

  return router;
}
