import {
  baseEnv,
  databaseEnv,
  durationMs,
  type EnvSource,
  healthEnv,
  loadEnvOrExit,
  port,
  redisEnv,
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
  ...healthEnv,
  // /healthz, /readyz and /metrics; 8081 is the registry's slot in the port table.
  HEALTH_PORT: port(8081),
  // ms: budget for the whole graceful shutdown (HTTP, RPC responder, bus, Prisma).
  SHUTDOWN_TIMEOUT_MS: durationMs(10_000),
});
export type RegistryEnv = z.output<typeof RegistryEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadRegistryEnv(source: EnvSource = process.env): RegistryEnv {
  return loadEnvOrExit(RegistryEnv, source);
}
