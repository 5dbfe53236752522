import {
  baseEnv,
  busEncryptionEnv,
  durationMs,
  type EnvSource,
  intInRange,
  loadEnvOrExit,
  pathVar,
  redisEnv,
  serviceEnv,
  urlVar,
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

/** Largest value Redis stores in one string (512 MiB): the cache size cap cannot exceed it. */
const REDIS_MAX_VALUE_BYTES = 512 * 1024 * 1024;
/** bytes: sanity ceiling of CRT_PROVIDER_MAX_BYTES (2 GiB); hundreds of MB already take minutes to parse. */
const MAX_PROVIDER_BYTES = 2 * 1024 * 1024 * 1024;
/** Largest delay setTimeout honours (ms); a TTL of 0 turns the crt cache off. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The crt capability (docs/decisions.md, /tmp/design.md "Providers"): provider base URLs, the
 * Cert Spotter token (a secret: never echoed, logged or put in a job), timeouts, the response cap
 * and the per-apex cache.
 */
const crtEnv = {
  CRT_SH_URL: urlVar(['https:', 'http:'], 'https://crt.sh'),
  CERTSPOTTER_URL: urlVar(['https:', 'http:'], 'https://api.certspotter.com'),
  // Optional: without it Cert Spotter serves a small anonymous quota. Blank counts as unset. The
  // value is never shown in an error (z.string() has no message that echoes its input).
  CERTSPOTTER_TOKEN: z
    .string()
    .optional()
    .transform((text) => (text === undefined || text.trim() === '' ? undefined : text.trim())),
  // ms: one HTTP attempt to a provider, headers and body (also cut by the run deadline).
  CRT_PROVIDER_TIMEOUT_MS: durationMs(15_000),
  // HTTP attempts per provider request (1 = no retry); retries back off exponentially with jitter.
  CRT_PROVIDER_ATTEMPTS: intInRange(1, 10, 3),
  // ms: everything the providers may take for one run, failover included (each remaining provider
  // gets an equal share of what is left).
  CRT_RUN_DEADLINE_MS: durationMs(45_000),
  // bytes (decompressed) read from one provider answer before it is cut: 64 MiB.
  CRT_PROVIDER_MAX_BYTES: intInRange(1_024, MAX_PROVIDER_BYTES, 64 * 1024 * 1024),
  // ms: lifetime of a per-apex cache entry; 0 turns the cache (and its single flight) off.
  CRT_CACHE_TTL_MS: intInRange(0, MAX_TIMER_MS, 300_000),
  // bytes (gzip): larger entries are not cached (8 MiB).
  CRT_CACHE_MAX_BYTES: intInRange(0, REDIS_MAX_VALUE_BYTES, 8 * 1024 * 1024),
};

/**
 * BullMQ consumer settings of the capability queues (design "Worker"): a worker killed mid-run has
 * its job picked up by another after at most lock + interval; a job that stalls more than
 * WORKER_MAX_STALLED_COUNT times fails (the orchestrator's stale-run sweep then fails the run).
 */
const queueEnv = {
  // ms: a job's lock lasts this long without renewal (renewed every half of it while it runs).
  WORKER_LOCK_DURATION_MS: durationMs(30_000),
  // ms: how often this worker looks for jobs whose worker stopped renewing their lock.
  WORKER_STALLED_INTERVAL_MS: durationMs(30_000),
  // Stalls (worker died mid-run) a job survives before it fails; 0 = the first stall fails it.
  WORKER_MAX_STALLED_COUNT: intInRange(0, 10, 2),
};

/** The html-to-pdf capability (runtime `browser`): the system chromium playwright-core drives. */
const htmlToPdfEnv = {
  // Debian's chromium package; the browser image (infra/docker/Dockerfile, target browser) has it.
  CHROMIUM_PATH: pathVar('/usr/bin/chromium'),
  // ms: one render (page load and PDF) and also the browser's launch; a timeout is retried.
  HTML_TO_PDF_TIMEOUT_MS: durationMs(30_000),
};

/**
 * pdf-extract-text: pdf.js reads each PDF in a worker thread of its own (domain/pdf/pdf-reader.ts),
 * bounded in time per step and in heap, so a PDF made to spin or to explode fails `invalid_input`
 * instead of taking the worker down.
 */
const pdfExtractEnv = {
  // ms: opening a PDF, and reading each page, must finish within this.
  PDF_EXTRACT_STEP_TIMEOUT_MS: durationMs(30_000),
  // MiB: V8 heap of one reading thread (one per running pdf-extract-text job).
  PDF_EXTRACT_THREAD_HEAP_MB: intInRange(64, 8_192, 512),
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
    WORKER_CONCURRENCY: intInRange(1, 1_000, 4),
    WORKER_RUNTIMES: runtimes,
    ...queueEnv,
    ...crtEnv,
    ...htmlToPdfEnv,
    ...pdfExtractEnv,
    ...storageEnv,
  })
  .superRefine(refineStorageEnv);
export type WorkerEnv = z.output<typeof WorkerEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export function loadWorkerEnv(source: EnvSource = process.env): WorkerEnv {
  return loadEnvOrExit(WorkerEnv, source);
}
