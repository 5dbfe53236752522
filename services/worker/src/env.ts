import { CAPABILITIES, capabilityEnv } from '@svc/capabilities';
import {
  baseEnv,
  busEncryptionEnv,
  durationMs,
  envLoader,
  intInRange,
  redisEnv,
  serviceEnv,
} from '@svc/config';
import { refineStorageEnv, storageEnv } from '@svc/storage';
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

/**
 * BullMQ consumer settings of the capability queues (design "Worker"): a worker killed mid-run has
 * its job picked up by another after at most lock + interval; a job that stalls more than
 * WORKER_MAX_STALLED_COUNT times fails (the orchestrator's stale-run sweep then fails the run).
 */
const queueEnv = {
  // ms: a job's lock lasts this long without renewal (renewed every half of it while it runs).
  WORKER_LOCK_DURATION_MS: durationMs(30_000).describe(
    'ms a job lock lasts without renewal (renewed every half of it while the job runs).',
  ),
  // ms: how often this worker looks for jobs whose worker stopped renewing their lock.
  WORKER_STALLED_INTERVAL_MS: durationMs(30_000).describe(
    'ms between two checks for jobs whose worker stopped renewing their lock.',
  ),
  // Stalls (worker died mid-run) a job survives before it fails; 0 = the first stall fails it.
  WORKER_MAX_STALLED_COUNT: intInRange(0, 10, 2).describe(
    'Stalls (worker died mid-run) a job survives before it fails; 0 = the first stall fails it.',
  ),
};

/**
 * The worker's environment (docs/architecture.md "Ports"); stateless: no DATABASE_URL. Object
 * storage (STORAGE_DRIVER…, the same store as the uploads service's) holds the inputs of the file
 * capabilities and the artifacts runs write.
 */
export const WorkerEnv = z
  .object({
    ...baseEnv,
    ...redisEnv,
    // BUS_ENCRYPTION_KEY: seals what this process writes to Redis (job payloads, RPC, events).
    ...busEncryptionEnv,
    // /healthz, /readyz, /metrics; 0 = any free port, so several workers can run on one host (the
    // bound port is logged as `{"msg":"listening"}`).
    ...serviceEnv(8086, { allowZero: true }),
    // Jobs one worker process runs at once (per queue).
    WORKER_CONCURRENCY: intInRange(1, 1_000, 4).describe('Jobs one worker process runs at once (per queue).'),
    WORKER_RUNTIMES: runtimes.describe(
      'Comma-separated runtimes this worker serves (e.g. `node,browser`): it consumes the queues of the capabilities of those runtimes and announces them with its heartbeat.',
    ),
    ...queueEnv,
    // Each capability's own variables (the `<slug>/env.ts` it declares in @svc/capabilities), in
    // catalog order; its handler receives their parsed values.
    ...capabilityEnv(CAPABILITIES),
    ...storageEnv,
  })
  .superRefine(refineStorageEnv);
export type WorkerEnv = z.output<typeof WorkerEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export const loadWorkerEnv = envLoader(WorkerEnv);
