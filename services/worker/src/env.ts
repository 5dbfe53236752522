import { baseEnv, durationMs, type EnvSource, loadEnvOrExit, redisEnv } from '@svc/config';
import { z } from 'zod';

/**
 * HEALTH_PORT of a worker: 0..65535, where 0 lets the OS pick a free port so several workers can run
 * on one host (@svc/config's `port()` starts at 1). The bound port is logged as `{"msg":"listening"}`.
 */
const healthPort = z
  .string()
  .default('8086')
  .transform((text, ctx) => {
    const value = /^\d{1,5}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
    if (!(value >= 0 && value <= 65_535)) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a port between 0 and 65535 (0 = any free port), got "${text}"`,
      });
      return z.NEVER;
    }
    return value;
  });

/** Jobs one worker process runs at once (per queue). */
const concurrency = z
  .string()
  .default('4')
  .transform((text, ctx) => {
    const value = /^\d{1,4}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
    if (!(value >= 1 && value <= 1_000)) {
      ctx.addIssue({ code: 'custom', message: `expected an integer between 1 and 1000, got "${text}"` });
      return z.NEVER;
    }
    return value;
  });

/** A runtime name is a segment of a Redis key (`<prefix>:workers:<runtime>:<id>`): no `:`, short. */
const RUNTIME_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,31}$/;

/** Comma-separated runtimes this worker serves, e.g. `node,python`; blanks and duplicates dropped. */
const runtimes = z
  .string()
  .default('node')
  .transform((text, ctx) => {
    const names = [
      ...new Set(
        text
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== ''),
      ),
    ];
    const bad = names.filter((name) => !RUNTIME_PATTERN.test(name));
    if (names.length === 0 || bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a comma list of runtime names (lowercase letters, digits, . _ -), got "${text}"`,
      });
      return z.NEVER;
    }
    return names;
  });

/** The worker's environment (docs/architecture.md "Ports"); stateless: no DATABASE_URL. */
export const WorkerEnv = z.object({
  ...baseEnv,
  ...redisEnv,
  HEALTH_PORT: healthPort,
  WORKER_CONCURRENCY: concurrency,
  WORKER_RUNTIMES: runtimes,
  // ms: budget of the whole graceful shutdown after SIGTERM/SIGINT, running jobs included.
  SHUTDOWN_TIMEOUT_MS: durationMs(10_000),
});
export type WorkerEnv = z.output<typeof WorkerEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadWorkerEnv(source: EnvSource = process.env): WorkerEnv {
  return loadEnvOrExit(WorkerEnv, source);
}
