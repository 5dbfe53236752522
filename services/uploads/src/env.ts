import { baseEnv, databaseEnv, type EnvSource, loadEnvOrExit, redisEnv, serviceEnv } from '@svc/config';
import { z } from 'zod';

/** The uploads service's environment (docs/architecture.md "Ports"); the only place it reads process.env. */
export const UploadsEnv = z.object({
  ...baseEnv,
  ...redisEnv,
  ...databaseEnv,
  // HEALTH_PORT (8084: the uploads service's slot in docs/architecture.md "Ports"), SHUTDOWN_TIMEOUT_MS.
  ...serviceEnv(8084),
});
export type UploadsEnv = z.output<typeof UploadsEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadUploadsEnv(source: EnvSource = process.env): UploadsEnv {
  return loadEnvOrExit(UploadsEnv, source);
}
