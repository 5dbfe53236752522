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

/** The vault service's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const VaultEnv = z.object({
  ...baseEnv,
  ...redisEnv,
  // BUS_ENCRYPTION_KEY: seals what this process writes to Redis (job payloads, RPC, events).
  ...busEncryptionEnv,
  ...databaseEnv,
  // HEALTH_PORT (8085: the vault's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
  ...serviceEnv(8085),
});
export type VaultEnv = z.output<typeof VaultEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadVaultEnv(source: EnvSource = process.env): VaultEnv {
  return loadEnvOrExit(VaultEnv, source);
}
