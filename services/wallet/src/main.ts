// Wallet process: answers `rpc.wallet` (balance, quotes, holds, run ledgers, usage statements,
// spend diagnostics, open holds, settle (capture or release a paid run's hold), ping) from the
// append-only ledger and the quotes it owns (schema `wallet`). Wiring only
// (defineService: env → logger → prisma → bus → start → health server); the logic is in src/domain/.
import { serveRpc } from '@svc/bus';
import { platformCatalog } from '@svc/contracts';
import { defineService } from '@svc/service-kit';
import { loadWalletEnv } from './env';
import { startQuoteCleanup } from './handlers/quote-cleanup-timer';
import { walletHandlers } from './handlers/rpc';

defineService({
  name: 'wallet',
  env: loadWalletEnv,
  needs: { database: true, bus: { catalog: platformCatalog } },
  // Creation order; closed in reverse after the health server: RPC responder, quote clean-up, then
  // the bus and Prisma.
  start: ({ env, logger, prisma, bus }) => {
    const rpc = serveRpc(bus, 'wallet', walletHandlers({ prisma, logger, quoteTtlMs: env.QUOTE_TTL_MS }));
    const quoteCleanup = startQuoteCleanup({
      prisma,
      logger,
      everyMs: env.QUOTE_CLEANUP_INTERVAL_MS,
      graceMs: env.QUOTE_CLEANUP_GRACE_MS,
    });
    return [quoteCleanup, { name: 'rpc', close: () => rpc.close() }];
  },
});
