import { baseEnv, databaseEnv, type EnvSource, loadEnvOrExit, redisEnv, serviceEnv } from '@svc/config';
import { z } from 'zod';

/** The orchestrator service's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const OrchestratorEnv = z.object({
  ...baseEnv,
  ...redisEnv,
  ...databaseEnv,
  // HEALTH_PORT (8083: the orchestrator's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
  ...serviceEnv(8083),
});
export type OrchestratorEnv = z.output<typeof OrchestratorEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadOrchestratorEnv(source: EnvSource = process.env): OrchestratorEnv {
  return loadEnvOrExit(OrchestratorEnv, source);
}
