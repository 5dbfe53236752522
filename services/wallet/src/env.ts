import { busDatabaseServiceEnv, durationMs, envLoader } from '@svc/config';
import { z } from 'zod';
import { DEFAULT_QUOTE_CLEANUP_GRACE_MS, DEFAULT_QUOTE_CLEANUP_INTERVAL_MS } from './domain/quote-cleanup';
import { DEFAULT_QUOTE_TTL_MS } from './domain/quotes';

/** The wallet's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const WalletEnv = z.object({
  // HEALTH_PORT (8082: the wallet's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
  ...busDatabaseServiceEnv(8082),
  // ms: how long an issued quote can start a run (expires_at = created_at + this); 15 min default.
  QUOTE_TTL_MS: durationMs(DEFAULT_QUOTE_TTL_MS).describe(
    'ms an issued quote can start a run (expires_at = created_at + this).',
  ),
  // ms between two passes that delete expired quotes no run used (issue 13); 1 min default.
  QUOTE_CLEANUP_INTERVAL_MS: durationMs(DEFAULT_QUOTE_CLEANUP_INTERVAL_MS).describe(
    'ms between two passes that delete expired quotes no run used.',
  ),
  // ms an unused quote is kept past its expires_at before that pass deletes it; 1 h default.
  QUOTE_CLEANUP_GRACE_MS: durationMs(DEFAULT_QUOTE_CLEANUP_GRACE_MS).describe(
    'ms an unused quote is kept past its expires_at before that pass deletes it.',
  ),
});
export type WalletEnv = z.output<typeof WalletEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export const loadWalletEnv = envLoader(WalletEnv);
