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

/** The orchestrator service's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const OrchestratorEnv = z.object({
  ...baseEnv,
  ...redisEnv,
  ...databaseEnv,
  // HEALTH_PORT (8083: the orchestrator's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
  ...serviceEnv(8083),
  // ms between two dispatcher sweeps (re-queue undispatched runs, fail stalled ones); one also runs at start-up.
  RUN_DISPATCH_INTERVAL_MS: durationMs(5_000),
  // ms without any report after which a running/retrying run is failed as stalled (15 min: far
  // beyond a crt run's 45 s provider deadline plus the job's retries).
  RUN_STALE_AFTER_MS: durationMs(15 * 60_000),
});
export type OrchestratorEnv = z.output<typeof OrchestratorEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadOrchestratorEnv(source: EnvSource = process.env): OrchestratorEnv {
  return loadEnvOrExit(OrchestratorEnv, source);
}
