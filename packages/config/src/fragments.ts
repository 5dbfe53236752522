import { z } from 'zod';
import {
  durationMs,
  intInRange,
  oneOf,
  type PortOptions,
  pathVar,
  port,
  secretKeyList,
  urlVar,
} from './helpers';

/**
 * Reusable pieces of a service's env schema: spread them into `z.object({...})` in the service's
 * `src/env.ts`, e.g. `z.object({ ...baseEnv, ...redisEnv, ...databaseEnv, ...serviceEnv(8081) })`.
 */

/** pino's level names; `silent` turns logging off (tests). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const NODE_ENVS = ['development', 'test', 'production'] as const;

export const baseEnv = {
  NODE_ENV: oneOf(NODE_ENVS)
    .default('development')
    .describe(`One of ${NODE_ENVS.join(', ')}.`),
  LOG_LEVEL: oneOf(LOG_LEVELS)
    .default('info')
    .describe(`pino level: ${LOG_LEVELS.join(', ')} (\`silent\`: no logs, for tests).`),
};

export const redisEnv = {
  REDIS_URL: urlVar(['redis:', 'rediss:'], 'redis://127.0.0.1:6379').describe(
    'The Redis of the bus (queues, RPC, events) and of the Redis-backed caches and limits; redis:// or rediss://.',
  ),
  // Prefix of every Redis key and queue name, so test suites and deployments can share one Redis.
  BUS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/, 'must be 1-32 lowercase letters, digits, _ or -')
    .default('svc')
    .describe(
      'Prefix of every Redis key, queue and channel (1-32 of a-z 0-9 _ -), so several deployments or test suites share one Redis.',
    ),
  // How long an RPC caller waits for a reply before answering 503.
  RPC_TIMEOUT_MS: durationMs(3_000).describe(
    'ms an RPC caller waits for a reply before it answers 503 naming the service.',
  ),
};

/** bytes: an AES-256 key of the bus (BUS_ENCRYPTION_KEY). */
export const BUS_ENCRYPTION_KEY_BYTES = 32;

/**
 * BUS_ENCRYPTION_KEY: the AES-256-GCM key(s) that seal every job payload, RPC request and reply and
 * event in Redis (@svc/bus sealing.ts; issue 13: no personal data at rest in Redis). Required by
 * every process on the bus, the same in all of them; comma-separated with the current key first
 * and older ones after it while queued messages sealed under them drain (rotation). No default: a
 * key in the code would protect nothing.
 */
export const busEncryptionEnv = {
  BUS_ENCRYPTION_KEY: secretKeyList(
    BUS_ENCRYPTION_KEY_BYTES,
    'the same 32 random bytes (hex or base64) in every service, e.g. `openssl rand -base64 32`; ' +
      '`pnpm start` makes one in <DATA_DIR>/bus-encryption-key',
  ).describe(
    'AES-256-GCM key(s) sealing every job payload, RPC message and event in Redis: 32 bytes in hex or base64, ' +
      'the same in every process; comma-separated with the current key first while older ones drain (rotation). ' +
      'No default (`pnpm start` makes one in <DATA_DIR>/bus-encryption-key).',
  ),
};

export const databaseEnv = {
  DATABASE_URL: urlVar(['postgres:', 'postgresql:']).describe(
    "PostgreSQL URL (postgres:// or postgresql://); each service uses only its own schema's tables.",
  ),
  // PostgreSQL connections one process may hold (pg Pool `max`, node-postgres's default 10). Raise it
  // where many requests wait on the database at once; mind the server's max_connections (100).
  DATABASE_POOL_MAX: intInRange(1, 1_000, 10).describe(
    "PostgreSQL connections one process may hold (pg Pool `max`, 1-1000); mind the server's max_connections.",
  ),
};

/**
 * What every service process reads besides its own settings: HEALTH_PORT (its /healthz, /readyz and
 * /metrics server; each service has its own default, docs/architecture.md "Ports") and
 * SHUTDOWN_TIMEOUT_MS (ms: budget of the whole graceful shutdown after SIGTERM/SIGINT, service-kit
 * runService).
 */
export function serviceEnv(defaultHealthPort: number, healthPortOptions: PortOptions = {}) {
  return {
    HEALTH_PORT: port(defaultHealthPort, healthPortOptions).describe(
      `The service's /healthz, /readyz and /metrics server${healthPortOptions.allowZero ? ' (0 = any free port)' : ''}.`,
    ),
    SHUTDOWN_TIMEOUT_MS: durationMs(10_000).describe(
      'ms the whole graceful shutdown after SIGTERM/SIGINT may take before the process exits anyway.',
    ),
  };
}

/**
 * The shared variables of a service on the bus that keeps its own database (all but the gateway,
 * which puts its PORT among them, and the worker, which keeps none), in this order: baseEnv, redisEnv, busEncryptionEnv, databaseEnv and
 * serviceEnv(defaultHealthPort): BUS_ENCRYPTION_KEY seals what the process writes to Redis (job
 * payloads, RPC, events); DATABASE_URL leads to its own schema's tables.
 */
export function busDatabaseServiceEnv(defaultHealthPort: number) {
  return { ...baseEnv, ...redisEnv, ...busEncryptionEnv, ...databaseEnv, ...serviceEnv(defaultHealthPort) };
}

/** Where `pnpm start` keeps its files when DATA_DIR is unset (relative to the workspace root). */
export const DEFAULT_DATA_DIR = '.data';

/**
 * `DATA_DIR`: the directory of everything `pnpm start` writes (embedded PostgreSQL and Redis data,
 * dev-key.json, runtime.json), read by the launcher and the operator CLI. A relative path is
 * relative to the workspace root, not to the current directory (pnpm runs scripts elsewhere).
 */
export const dataDirEnv = {
  DATA_DIR: pathVar(DEFAULT_DATA_DIR).describe(
    'Directory of what `pnpm start` writes (embedded PostgreSQL and Redis data, dev key, runtime.json); relative to the workspace root.',
  ),
};
