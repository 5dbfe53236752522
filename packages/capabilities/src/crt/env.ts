import { durationMs, intInRange, urlVar } from '@svc/config';
import { z } from 'zod';

/** Largest value Redis stores in one string (512 MiB): the cache size cap cannot exceed it. */
const REDIS_MAX_VALUE_BYTES = 512 * 1024 * 1024;
/** bytes: sanity ceiling of CRT_PROVIDER_MAX_BYTES (2 GiB); hundreds of MB already take minutes to parse. */
const MAX_PROVIDER_BYTES = 2 * 1024 * 1024 * 1024;
/** Largest delay setTimeout honours (ms); a TTL of 0 turns the crt cache off. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The crt capability's worker variables (docs/decisions.md, /tmp/design.md "Providers"): provider
 * base URLs, the Cert Spotter token (a secret: never echoed, logged or put in a job), timeouts, the
 * response cap and the per-apex cache. Merged into the worker's env schema.
 */
export const crtEnv = {
  CRT_SH_URL: urlVar(['https:', 'http:'], 'https://crt.sh').describe(
    'Base URL of crt.sh, the first certificate-transparency provider.',
  ),
  CERTSPOTTER_URL: urlVar(['https:', 'http:'], 'https://api.certspotter.com').describe(
    'Base URL of the Cert Spotter API, the failover provider.',
  ),
  // Optional: without it Cert Spotter serves a small anonymous quota. Blank counts as unset. The
  // value is never shown in an error (z.string() has no message that echoes its input).
  CERTSPOTTER_TOKEN: z
    .string()
    .optional()
    .transform((text) => (text === undefined || text.trim() === '' ? undefined : text.trim()))
    .describe('Cert Spotter API token (a secret, never shown); unset: the anonymous quota.'),
  // ms: one HTTP attempt to a provider, headers and body (also cut by the run deadline).
  CRT_PROVIDER_TIMEOUT_MS: durationMs(15_000).describe(
    'ms one HTTP attempt to a provider may take, headers and body.',
  ),
  // HTTP attempts per provider request (1 = no retry); retries back off exponentially with jitter.
  CRT_PROVIDER_ATTEMPTS: intInRange(1, 10, 3).describe(
    'HTTP attempts per provider request (1 = no retry); retries back off exponentially with jitter.',
  ),
  // ms: everything the providers may take for one run, failover included (each remaining provider
  // gets an equal share of what is left).
  CRT_RUN_DEADLINE_MS: durationMs(45_000).describe(
    'ms the providers may take for one run, failover included.',
  ),
  // bytes (decompressed) read from one provider answer before it is cut: 64 MiB.
  CRT_PROVIDER_MAX_BYTES: intInRange(1_024, MAX_PROVIDER_BYTES, 64 * 1024 * 1024).describe(
    'bytes (decompressed) read from one provider answer before it is cut.',
  ),
  // ms: lifetime of a per-apex cache entry; 0 turns the cache (and its single flight) off.
  CRT_CACHE_TTL_MS: intInRange(0, MAX_TIMER_MS, 300_000).describe(
    'ms a per-apex cache entry lives; 0 turns the cache (and its single flight) off.',
  ),
  // bytes (gzip): larger entries are not cached (8 MiB).
  CRT_CACHE_MAX_BYTES: intInRange(0, REDIS_MAX_VALUE_BYTES, 8 * 1024 * 1024).describe(
    'bytes (gzip): larger provider answers are not cached.',
  ),
};
