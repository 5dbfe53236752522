import {
  busDatabaseServiceEnv,
  envLoader,
  intInRange,
  port,
  publicBaseUrl,
  trustProxy,
  urlVar,
} from '@svc/config';
import { z } from 'zod';

/**
 * The dashboard process's environment (docs/architecture.md "Ports and process environment"). The
 * only place that reads process.env; everything else takes the parsed values.
 */
export const DashboardEnv = z.object({
  // DATABASE_URL: the `dashboard` schema (accounts, sessions); no other service's tables.
  // RPC_TIMEOUT_MS: ms a page waits for each service it asks (default 3_000).
  // BUS_ENCRYPTION_KEY: seals what this process writes to Redis (RPC, one-time notes); the sign-in
  // throttle's counter names are keyed from it too.
  // HEALTH_PORT 8087: /healthz, /readyz, /metrics; SHUTDOWN_TIMEOUT_MS covers the HTTP drain, bus and Prisma.
  ...busDatabaseServiceEnv(8087),
  // The pages, reached only through the gateway (its DASHBOARD_URL), which proxies its origin's
  // /dashboard here; 0 = any free port (tests).
  DATA_PORT: port(8095, { allowZero: true }).describe(
    "The dashboard's pages, reached only through the gateway (its DASHBOARD_URL); 0 = any free port.",
  ),
  // The uploads service's internal HTTP server (its DATA_PORT): a vault template's bytes are put
  // there, artifacts and filled documents read from there.
  UPLOADS_URL: urlVar(['http:'], 'http://127.0.0.1:8094').describe(
    "The uploads service's internal HTTP server: template uploads and artifact downloads of the dashboard.",
  ),
  PUBLIC_BASE_URL: publicBaseUrl.describe(
    "The gateway's public origin (and optional path prefix), also accepted as a form's Origin; unset: each request's own.",
  ),
  // The gateway is the hop in front: its X-Forwarded-For/-Proto/-Host carry the browser's address,
  // protocol and host. Default: trust loopback hops only (the gateway on the same machine).
  TRUST_PROXY: trustProxy('loopback').describe(
    "Hops whose X-Forwarded-* the dashboard believes: the gateway's address (default loopback); a number, a list, `true` or `false`.",
  ),
  // The dashboard's sessions (issue 18): an absolute lifetime from sign-in, and an idle timeout
  // applied on each lookup; either one over and the browser is sent back to sign in.
  DASHBOARD_SESSION_MAX_HOURS: intInRange(1, 720, 12).describe(
    'Hours a dashboard session lasts from sign-in, however active (1 to 720).',
  ),
  DASHBOARD_SESSION_IDLE_MINUTES: intInRange(1, 10_080, 60).describe(
    'Minutes without a request after which a dashboard session ends (1 to 10080).',
  ),
});
export type DashboardEnv = z.output<typeof DashboardEnv>;

/** Parses the environment; a bad or missing variable prints which one and exits 1. */
export const loadDashboardEnv = envLoader(DashboardEnv);
