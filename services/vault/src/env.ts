import { baseEnv, databaseEnv, durationMs, type EnvSource, loadEnvOrExit, port, redisEnv } from '@svc/config';
import { z } from 'zod';

/** The vault service's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const VaultEnv = z.object({
  ...baseEnv,
  ...redisEnv,
  ...databaseEnv,
  // /healthz, /readyz, /metrics.
  HEALTH_PORT: port(8085),
  // ms: budget of the whole graceful shutdown after SIGTERM/SIGINT (service-kit runService).
  SHUTDOWN_TIMEOUT_MS: durationMs(10_000),
});
export type VaultEnv = z.output<typeof VaultEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadVaultEnv(source: EnvSource = process.env): VaultEnv {
  return loadEnvOrExit(VaultEnv, source);
}
