import {
  baseEnv,
  busEncryptionEnv,
  databaseEnv,
  type EnvSource,
  loadEnvOrExit,
  redisEnv,
  serviceEnv,
} from '@svc/config';
import { z } from 'zod';

/**
 * The registry's environment (docs/architecture.md "Ports and process environment"). The only
 * place that reads process.env; everything else takes the parsed values.
 */
export const RegistryEnv = z.object({
  ...baseEnv,
  ...databaseEnv,
  ...redisEnv,
  // BUS_ENCRYPTION_KEY: seals what this process writes to Redis (job payloads, RPC, events).
  ...busEncryptionEnv,
  // HEALTH_PORT (8081: the registry's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
  ...serviceEnv(8081),
});
export type RegistryEnv = z.output<typeof RegistryEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadRegistryEnv(source: EnvSource = process.env): RegistryEnv {
  return loadEnvOrExit(RegistryEnv, source);
}
