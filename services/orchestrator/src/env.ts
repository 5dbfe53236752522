import {
  baseEnv,
  busEncryptionEnv,
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
  // BUS_ENCRYPTION_KEY: seals what this process writes to Redis (job payloads, RPC, events).
  ...busEncryptionEnv,
  ...databaseEnv,
  // HEALTH_PORT (8083: the orchestrator's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
  ...serviceEnv(8083),
  // ms between two dispatcher sweeps (re-queue undispatched runs, fail stalled ones); one also runs at start-up.
  RUN_DISPATCH_INTERVAL_MS: durationMs(5_000).describe(
    'ms between two dispatcher sweeps (re-queue undispatched runs, fail stalled ones, re-queue unsettled ones).',
  ),
  // ms without any report after which a running/retrying run is failed as stalled (15 min: far
  // beyond a crt run's 45 s provider deadline plus the job's retries).
  RUN_STALE_AFTER_MS: durationMs(15 * 60_000).describe(
    'ms without any report after which a running or retrying run is failed as stalled.',
  ),
  // ms a registry describe answer is reused for quotes and runs (also cleared on `catalog.changed`;
  // the TTL covers a lost event): 5 s keeps a burst of runs off the registry.
  CAPABILITY_CACHE_TTL_MS: durationMs(5_000).describe(
    'ms a registry describe answer is reused for quotes and runs (also cleared on `catalog.changed`).',
  ),
  // ms after which a wallet hold with no run row is released (the run transaction rolled back after
  // the wallet committed the hold). 10 min: far beyond any run transaction (RPC timeout + 5 s).
  ORPHAN_HOLD_AFTER_MS: durationMs(10 * 60_000).describe(
    'ms after which a wallet hold with no run row (its run transaction rolled back) is released.',
  ),
});
export type OrchestratorEnv = z.output<typeof OrchestratorEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadOrchestratorEnv(source: EnvSource = process.env): OrchestratorEnv {
  return loadEnvOrExit(OrchestratorEnv, source);
}
