import { CAPABILITIES, capabilityEnv, runnableCapabilities } from '@svc/capabilities';
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

/** The runnable capabilities of the catalog, each with its runtime: what WORKER_SLOTS and WORKER_CAPABILITIES may name. */
const RUNNABLE_RUNTIMES: ReadonlyMap<string, string> = new Map(
  runnableCapabilities(CAPABILITIES).map((capability) => [capability.slug, capability.execution.runtime]),
);
const RUNNABLE_LIST = [...RUNNABLE_RUNTIMES.keys()].join(', ');

/** The items of a comma list, trimmed, blanks dropped. */
function commaItems(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** `slug=N` pairs of WORKER_SLOTS: runnable capabilities, each once, 1..1000 each. */
const slots = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const parsed: Record<string, number> = {};
    for (const item of commaItems(text)) {
      const match = /^([a-z0-9-]+)=(\d{1,4})$/.exec(item);
      const slug = match?.[1];
      const count = Number(match?.[2]);
      if (
        slug === undefined ||
        !RUNNABLE_RUNTIMES.has(slug) ||
        count < 1 ||
        count > 1_000 ||
        slug in parsed
      ) {
        ctx.addIssue({
          code: 'custom',
          message: `expected a comma list of slug=N (a runnable capability once each: ${RUNNABLE_LIST}; N 1 to 1000), got "${item}"`,
        });
        return z.NEVER;
      }
      parsed[slug] = count;
    }
    return parsed;
  });

/** WORKER_CAPABILITIES: runnable capabilities, each once; empty means all. */
const capabilityList = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const named = commaItems(text);
    if (named.some((slug, i) => !RUNNABLE_RUNTIMES.has(slug) || named.indexOf(slug) !== i)) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a comma list of runnable capabilities, each once (${RUNNABLE_LIST}), got "${text}"`,
      });
      return z.NEVER;
    }
    return named;
  });

/** A runtime name is a segment of a Redis key (`<prefix>:workers:<runtime>:<id>`): no `:`, short. */
const RUNTIME_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,31}$/;

/** Comma-separated runtimes this worker serves, e.g. `node,python`; blanks and duplicates dropped. */
const runtimes = z
  .string()
  .default('node')
  .transform((text, ctx) => {
    const names = [...new Set(commaItems(text))];
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
    // How many runs of each capability one process runs at once (decisions RW4): its workload's
    // default, WORKER_CONCURRENCY for every queue when set, WORKER_SLOTS per capability over both.
    WORKER_CONCURRENCY: intInRange(1, 1_000)
      .optional()
      .describe(
        "Jobs one worker process runs at once per queue, for every capability; unset: each capability's workload default (io 64, cpu two per core, browser 2).",
      ),
    WORKER_SLOTS: slots.describe(
      'Comma list of `slug=N`: runs of that capability one worker process runs at once (e.g. `crt=128,pii-redact=1`), over WORKER_CONCURRENCY and the workload default.',
    ),
    WORKER_CAPABILITIES: capabilityList.describe(
      'Comma-separated capabilities this worker serves (e.g. `crt,pii-redact`), of its runtimes; empty: every capability of WORKER_RUNTIMES. A pool per set, each scaled on its own.',
    ),
    WORKER_RUNTIMES: runtimes.describe(
      'Comma-separated runtimes this worker serves (e.g. `node,browser`): it consumes the queues of the capabilities of those runtimes and announces them with its heartbeat.',
    ),
    ...queueEnv,
    // Each capability's own variables (the `<slug>/env.ts` it declares in @svc/capabilities), in
    // catalog order; its handler receives their parsed values.
    ...capabilityEnv(CAPABILITIES),
    ...storageEnv,
  })
  .superRefine(refineStorageEnv)
  .superRefine((env, ctx) => {
    // A capability the worker is told to serve must be of a runtime it serves.
    for (const slug of env.WORKER_CAPABILITIES) {
      const runtime = RUNNABLE_RUNTIMES.get(slug);
      if (runtime !== undefined && !env.WORKER_RUNTIMES.includes(runtime)) {
        ctx.addIssue({
          code: 'custom',
          path: ['WORKER_CAPABILITIES'],
          message: `${slug} runs on the ${runtime} runtime, which WORKER_RUNTIMES (${env.WORKER_RUNTIMES.join(',')}) does not name`,
        });
      }
    }
  });
export type WorkerEnv = z.output<typeof WorkerEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export const loadWorkerEnv = envLoader(WorkerEnv);
