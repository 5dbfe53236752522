import {
  baseEnv,
  busEncryptionEnv,
  databaseEnv,
  durationMs,
  envLoader,
  intInRange,
  port,
  publicBaseUrl,
  redisEnv,
  serviceEnv,
  trustProxy,
  urlVar,
} from '@svc/config';
import { z } from 'zod';

// The defaults, shared with createApp (app.ts) for apps built without an environment (tests).
export const DEFAULT_JSON_BODY_LIMIT = '1mb';
// ms: under the 60 s idle timeout common in load balancers and proxies, so the 202 arrives first.
export const DEFAULT_CRT_RUN_WAIT_MS = 55_000;
// ms: under the MCP SDK client's default 60 s request timeout, with room for the answer.
export const DEFAULT_MCP_RUN_WAIT_MS = 25_000;
// The minimum pace of a request body (middleware/body-rate.ts, decisions I7): Apache httpd's
// mod_reqtimeout defaults (`body=20,MinRate=500`): 20 s, then 1 s more per 500 bytes received.
export const DEFAULT_BODY_GRACE_MS = 20_000;
export const DEFAULT_BODY_MIN_BYTES_PER_SECOND = 500;

// TRUST_PROXY (@svc/config `trustProxy`): default off, so a client cannot spoof its address.
const TrustProxy = trustProxy(false);

/**
 * RATE_LIMIT_MULTIPLIER: scales every default rate-limit budget (README "Rate limits"), e.g. 1000
 * for load tests on one machine, where every request comes from one key and one address; the
 * limiter still runs. A positive decimal; operator overrides (`pnpm admin set-rate-limit`) are not
 * scaled.
 */
const RateLimitMultiplier = z
  .string()
  .trim()
  .regex(/^\d+(?:\.\d+)?$/, 'must be a positive number such as 1, 0.5 or 1000')
  .transform(Number)
  .refine((value) => value > 0 && value <= 1_000_000, 'must be greater than 0 and at most 1000000')
  .default(1);

/** A body-parser size: bytes, or a number with b/kb/mb (e.g. "1mb", "512kb"). Above 100 MB is a typo. */
const BodyLimit = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^\d+(?:\.\d+)?\s*(?:b|kb|mb)?$/, 'must be a size such as 1mb, 512kb or 1048576')
  .refine((text) => parseSize(text) <= 100 * 1024 * 1024, 'must be at most 100mb')
  .default(DEFAULT_JSON_BODY_LIMIT);

/** Bytes of a body-parser size such as "1mb" (NaN when it is not one); route-kit.ts compares limits with it. */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb)?$/.exec(text);
  if (!match) return Number.NaN;
  const unit = match[2] === 'mb' ? 1024 * 1024 : match[2] === 'kb' ? 1024 : 1;
  return Number(match[1]) * unit;
}

/**
 * A comma-separated list, trimmed, lowercased, empty entries dropped, each entry checked and
 * normalised by `entry` (undefined: not a valid entry, named in the error); unset or empty:
 * undefined (the default applies). A list of the MCP guard is compared as is with the request's
 * headers, so an entry that can never match must fail at start-up, not refuse every request.
 */
function commaList(expected: string, entry: (text: string) => string | undefined) {
  return z
    .string()
    .transform((text, ctx) => {
      const list: string[] = [];
      for (const raw of text.split(',')) {
        const trimmed = raw.trim().toLowerCase();
        if (trimmed === '') continue;
        const value = entry(trimmed);
        if (value === undefined) {
          ctx.addIssue({ code: 'custom', message: `expected ${expected}, got "${trimmed}"` });
          return z.NEVER;
        }
        list.push(value);
      }
      return list.length === 0 ? undefined : list;
    })
    .optional();
}

// `name` or `name:port`, an IPv6 address in brackets (as in a Host header).
const HOST_ENTRY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::\d{1,5})?$/;

/** An http(s) origin as a browser sends it: no path, no trailing slash, no default port. */
function originEntry(text: string): string | undefined {
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  const bare = url.pathname === '/' && url.search === '' && url.hash === '';
  if (!bare || url.username !== '' || url.password !== '') return undefined;
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}

// PUBLIC_BASE_URL (@svc/config `publicBaseUrl`): unset, links are built from each request.
const PublicBaseUrl = publicBaseUrl;

/**
 * The gateway's environment (docs/architecture.md "Ports and process environment"). The only
 * place that reads process.env; everything else takes the parsed values.
 */
export const GatewayEnv = z.object({
  ...baseEnv,
  ...databaseEnv, // the `auth` schema (API keys); no other service's tables
  ...redisEnv, // REDIS_URL, BUS_PREFIX, RPC_TIMEOUT_MS (ms, default 3_000)
  // BUS_ENCRYPTION_KEY: seals what this process writes to Redis (job payloads, RPC, events).
  ...busEncryptionEnv,
  // The public API, /healthz, /readyz and /openapi.json.
  PORT: port(8080).describe('The public API: REST, /mcp, /healthz, /readyz and /openapi.json.'),
  // HEALTH_PORT 9080: /metrics (and internal /healthz, /readyz) for the scraper, kept off the
  // public port; SHUTDOWN_TIMEOUT_MS covers the HTTP drain, subscription, bus and Prisma.
  ...serviceEnv(9080),
  // ms: how long a search/describe answer is served from memory (decisions.md P2).
  CATALOG_CACHE_TTL_MS: durationMs(30_000).describe(
    'ms a registry search/describe answer is served from memory (also cleared on `catalog.changed`).',
  ),
  // ms: how long a verified API key is served from memory (issue 15 item 5). Also the bound on how
  // long a revoked key still works on a gateway that missed the `apikey.revoked` event (Redis down).
  API_KEY_CACHE_TTL_MS: durationMs(1_000).describe(
    'ms a verified API key is served from memory without a database query; a revoked key is refused within this on every gateway (also cleared on `apikey.revoked`).',
  ),
  JSON_BODY_LIMIT: BodyLimit.describe(
    'Largest JSON request body: bytes, or a number with b/kb/mb (at most 100mb); larger bodies get 413.',
  ),
  // A request body that drips (issue 23 item 15): cut with 408 once it is behind this pace; the upload
  // PUT is exempt (its clock is the uploads service's UPLOAD_IDLE_TIMEOUT_MS and UPLOAD_PUT_TIMEOUT_MS).
  BODY_GRACE_MS: durationMs(DEFAULT_BODY_GRACE_MS).describe(
    'ms every request body gets to arrive before its pace counts (BODY_MIN_BYTES_PER_SECOND extends it); a slower body gets 408. Not the upload PUT.',
  ),
  BODY_MIN_BYTES_PER_SECOND: intInRange(0, 1_000_000_000, DEFAULT_BODY_MIN_BYTES_PER_SECOND).describe(
    'Each this many bytes of a request body received extend BODY_GRACE_MS by 1 s (0: a body must arrive within BODY_GRACE_MS).',
  ),
  TRUST_PROXY: TrustProxy.describe(
    "express's `trust proxy`: false (X-Forwarded-For ignored), true (every hop), a hop count, or addresses/subnets.",
  ),
  // ms: how long POST /api/capabilities/crt/run waits for its run before answering 202 with a
  // Location to poll; under the 60 s idle timeout of common proxies and load balancers.
  CRT_RUN_WAIT_MS: durationMs(DEFAULT_CRT_RUN_WAIT_MS).describe(
    'ms POST /api/capabilities/crt/run waits for its run before answering 202 with a Location to poll.',
  ),
  // ms: how often a waiting request polls orchestrator.getRun, in case the run.finished event was
  // lost (pub/sub is lossy); each poll is one RPC per waited-on run.
  RUN_POLL_INTERVAL_MS: durationMs(1_000).describe(
    'ms between two orchestrator.getRun polls of a waiting request, in case `run.finished` was lost.',
  ),
  PUBLIC_BASE_URL: PublicBaseUrl.describe(
    'Origin (and optional path prefix) clients reach the gateway at, for upload_url and artifact links; unset: built from each request.',
  ),
  // The uploads service's internal HTTP server (its DATA_PORT, default 8094): the gateway streams
  // upload PUTs and artifact downloads to it. Never exposed publicly; http only (loopback or a
  // private network).
  UPLOADS_URL: urlVar(['http:'], 'http://127.0.0.1:8094').describe(
    "The uploads service's internal HTTP server (its DATA_PORT): upload PUTs and artifact downloads are streamed to it.",
  ),
  // The dashboard process's HTTP server (its DATA_PORT, default 8095): `/dashboard` is proxied to it
  // on the gateway's origin (issue 24). Never exposed publicly; http only (loopback or a private
  // network).
  DASHBOARD_URL: urlVar(['http:'], 'http://127.0.0.1:8095').describe(
    "The dashboard process's HTTP server (its DATA_PORT): /dashboard is proxied to it on the gateway's origin.",
  ),
  // MCP at /mcp, DNS-rebinding defence (decisions M3): the Host values and browser Origins
  // accepted, comma-separated. Unset: localhost, 127.0.0.1 and [::1] on any port plus
  // PUBLIC_BASE_URL's host (and origin). A host entry without a port matches any port.
  MCP_ALLOWED_HOSTS: commaList('host names or name:port, comma-separated', (text) =>
    HOST_ENTRY.test(text) ? text : undefined,
  ).describe(
    "Host header values /mcp accepts, comma-separated (name or name:port); unset: localhost, 127.0.0.1, [::1] and PUBLIC_BASE_URL's host.",
  ),
  MCP_ALLOWED_ORIGINS: commaList(
    'http(s) origins such as https://app.example.com, comma-separated',
    originEntry,
  ).describe(
    "Browser Origins /mcp accepts, comma-separated; unset: the local ones and PUBLIC_BASE_URL's origin.",
  ),
  // ms: how long svc_tool_run waits for a run (a crt run always; any run when the client asked
  // for progress) before answering with its status; under the MCP SDK client's 60 s request timeout.
  MCP_RUN_WAIT_MS: durationMs(DEFAULT_MCP_RUN_WAIT_MS).describe(
    'ms svc_tool_run waits for a run (crt always; others when progress was asked) before answering with its status.',
  ),
  RATE_LIMIT_MULTIPLIER: RateLimitMultiplier.describe(
    'Scales every default rate-limit budget (e.g. 1000 for load tests); operator overrides are not scaled.',
  ),
});
export type GatewayEnv = z.output<typeof GatewayEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export const loadGatewayEnv = envLoader(GatewayEnv);
