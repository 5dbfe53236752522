import { baseEnv, databaseEnv, durationMs, type EnvSource, loadEnvOrExit, port, redisEnv } from '@svc/config';
import { z } from 'zod';

/** The wallet's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const WalletEnv = z.object({
  ...baseEnv,
  ...redisEnv,
  ...databaseEnv,
  // /healthz, /readyz, /metrics.
  HEALTH_PORT: port(8082),
  // ms: budget of the whole graceful shutdown after SIGTERM/SIGINT (service-kit runService).
  SHUTDOWN_TIMEOUT_MS: durationMs(10_000),
});
export type WalletEnv = z.output<typeof WalletEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadWalletEnv(source: EnvSource = process.env): WalletEnv {
  return loadEnvOrExit(WalletEnv, source);
}
