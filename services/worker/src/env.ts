import { baseEnv, type EnvSource, intInRange, loadEnvOrExit, redisEnv, serviceEnv } from '@svc/config';
import { z } from 'zod';

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
  // /healthz, /readyz, /metrics; 0 = any free port, so several workers can run on one host (the
  // bound port is logged as `{"msg":"listening"}`).
  ...serviceEnv(8086, { allowZero: true }),
  // Jobs one worker process runs at once (per queue).
  WORKER_CONCURRENCY: intInRange(1, 1_000, 4),
  WORKER_RUNTIMES: runtimes,
});
export type WorkerEnv = z.output<typeof WorkerEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadWorkerEnv(source: EnvSource = process.env): WorkerEnv {
  return loadEnvOrExit(WorkerEnv, source);
}
