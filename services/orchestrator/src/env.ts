import { busDatabaseServiceEnv, durationMs, envLoader } from '@svc/config';
import { z } from 'zod';

/** The orchestrator service's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const OrchestratorEnv = z.object({
  // HEALTH_PORT (8083: the orchestrator's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
  ...busDatabaseServiceEnv(8083),
  // ms between two dispatcher sweeps; one also runs at start-up. 1 s: a run whose job Redis lost is
  // handed over again within about a second of the check that finds it (issue 15).
  RUN_DISPATCH_INTERVAL_MS: durationMs(1_000).describe(
    'ms between two dispatcher sweeps (finish runs pending their hold, hand over again runs whose job Redis lost, re-drive settlements).',
  ),
  // ms a registry describe answer is reused for quotes and runs (also cleared on `catalog.changed`;
  // the TTL covers a lost event): 5 s keeps a burst of runs off the registry.
  CAPABILITY_CACHE_TTL_MS: durationMs(5_000).describe(
    'ms a registry describe answer is reused for quotes and runs (also cleared on `catalog.changed`).',
  ),
  // ms after which a wallet hold with no run row is released. A safety net since issue 15: a run is
  // recorded before its hold and undone only after the hold is released, so no path leaves one.
  ORPHAN_HOLD_AFTER_MS: durationMs(10 * 60_000).describe(
    'ms after which a wallet hold with no run row is released (a safety net: no path of the run leaves one).',
  ),
});
export type OrchestratorEnv = z.output<typeof OrchestratorEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export const loadOrchestratorEnv = envLoader(OrchestratorEnv);
