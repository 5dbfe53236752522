import { z } from 'zod';
import { durationMs, oneOf, port, urlVar } from './helpers';

/**
 * Reusable pieces of a service's env schema: spread them into `z.object({...})` in the service's
 * `src/env.ts`, e.g. `z.object({ ...baseEnv, ...redisEnv, ...databaseEnv, ...healthEnv })`.
 */

/** pino's level names; `silent` turns logging off (tests). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const NODE_ENVS = ['development', 'test', 'production'] as const;

export const baseEnv = {
  NODE_ENV: oneOf(NODE_ENVS).default('development'),
  LOG_LEVEL: oneOf(LOG_LEVELS).default('info'),
};

export const redisEnv = {
  REDIS_URL: urlVar(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
  // Prefix of every Redis key and queue name, so test suites and deployments can share one Redis.
  BUS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/, 'must be 1-32 lowercase letters, digits, _ or -')
    .default('svc'),
  // How long an RPC caller waits for a reply before answering 503.
  RPC_TIMEOUT_MS: durationMs(3_000),
};

export const databaseEnv = {
  DATABASE_URL: urlVar(['postgres:', 'postgresql:']),
};

/** Port of the /healthz, /readyz and /metrics server of a non-gateway service; no default (one per service). */
export const healthEnv = {
  HEALTH_PORT: port(),
};
