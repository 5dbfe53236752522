import { baseEnv, databaseEnv, durationMs, type EnvSource, loadEnvOrExit, port, redisEnv } from '@svc/config';
import { z } from 'zod';

/** The orchestrator service's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const OrchestratorEnv = z.object({
  ...baseEnv,
  ...redisEnv,
  ...databaseEnv,
  // /healthz, /readyz, /metrics.
  HEALTH_PORT: port(8083),
  // ms: budget of the whole graceful shutdown after SIGTERM/SIGINT (service-kit runService).
  SHUTDOWN_TIMEOUT_MS: durationMs(10_000),
});
export type OrchestratorEnv = z.output<typeof OrchestratorEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadOrchestratorEnv(source: EnvSource = process.env): OrchestratorEnv {
  return loadEnvOrExit(OrchestratorEnv, source);
}
