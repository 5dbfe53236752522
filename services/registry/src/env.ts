import { busDatabaseServiceEnv, envLoader } from '@svc/config';
import { z } from 'zod';

/**
 * The registry's environment (docs/architecture.md "Ports and process environment"). The only
 * place that reads process.env; everything else takes the parsed values.
 */
export const RegistryEnv = z.object({
  // HEALTH_PORT (8081: the registry's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
  ...busDatabaseServiceEnv(8081),
});
export type RegistryEnv = z.output<typeof RegistryEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export const loadRegistryEnv = envLoader(RegistryEnv);
