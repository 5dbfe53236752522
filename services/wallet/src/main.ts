// Wallet process: answers `rpc.wallet` (balance, quotes, holds, run ledgers, usage statements,
// spend diagnostics, open holds, ping) from the append-only ledger and the quotes it owns (schema
// `wallet`), and consumes `jobs.wallet.settle` (capture or release a paid run's hold). Wiring only
// (defineService: env → logger → prisma → bus → start → health server); the logic is in src/domain/.
import { processJobs, serveRpc } from '@svc/bus';
import { platformCatalog } from '@svc/contracts';
import { defineService } from '@svc/service-kit';
import { loadWalletEnv } from './env';
import { startQuoteCleanup } from './handlers/quote-cleanup-timer';
import { walletHandlers } from './handlers/rpc';
import { settleJobHandler } from './handlers/settle-job';

// Settle jobs handled at once: each is one short transaction (I/O-bound); jobs of one client queue
// on its wallet lock anyway. Kept below the pool (DATABASE_POOL_MAX) so RPCs still get connections.
const SETTLE_CONCURRENCY = 4;

defineService({
  name: 'wallet',
  env: loadWalletEnv,
  needs: { database: true, bus: { catalog: platformCatalog } },
  // Creation order; closed in reverse after the health server: RPC responder, quote clean-up,
  // settle consumer (finishes its running jobs), then the bus and Prisma.
  start: ({ env, logger, prisma, bus }) => {
    const settle = processJobs(bus, 'wallet.settle', settleJobHandler({ prisma, logger }), {
      concurrency: SETTLE_CONCURRENCY,
    });
    const rpc = serveRpc(bus, 'wallet', walletHandlers({ prisma, quoteTtlMs: env.QUOTE_TTL_MS }));
    const quoteCleanup = startQuoteCleanup({
      prisma,
      logger,
      everyMs: env.QUOTE_CLEANUP_INTERVAL_MS,
      graceMs: env.QUOTE_CLEANUP_GRACE_MS,
    });
    return [
      { name: 'settle jobs', close: () => settle.close() },
      quoteCleanup,
      { name: 'rpc', close: () => rpc.close() },
    ];
  },
});
