import {
  baseEnv,
  databaseEnv,
  durationMs,
  type EnvSource,
  loadEnvOrExit,
  redisEnv,
  serviceEnv,
} from '@svc/config';
import { z } from 'zod';
import { DEFAULT_QUOTE_TTL_MS } from './domain/quotes';

/** The wallet's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const WalletEnv = z.object({
  ...baseEnv,
  ...redisEnv,
  ...databaseEnv,
  // HEALTH_PORT (8082: the wallet's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
  ...serviceEnv(8082),
  // ms: how long an issued quote can start a run (expires_at = created_at + this); 15 min default.
  QUOTE_TTL_MS: durationMs(DEFAULT_QUOTE_TTL_MS),
});
export type WalletEnv = z.output<typeof WalletEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadWalletEnv(source: EnvSource = process.env): WalletEnv {
  return loadEnvOrExit(WalletEnv, source);
}
