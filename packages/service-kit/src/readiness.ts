import type { ReadinessCheck, ReadinessResponse, ServiceReadiness } from '@svc/contracts';
import { scrubSecrets } from '@svc/log';
import type { ReadinessCheckFn } from './checks';

/**
 * ms: a check still unanswered by then counts as failed, so /readyz answers promptly (probe
 * timeouts are typically 1-5 s) even when Redis or PostgreSQL hangs instead of refusing.
 */
export const DEFAULT_CHECK_TIMEOUT_MS = 1_000;
/** characters: readiness errors are one short line (they may be shown on dashboards). */
const MAX_ERROR_LENGTH = 200;

/** Reads the readiness of the services behind this one (the gateway's; see @svc/bus service-presence). */
export type BackingServicesReader = () => Promise<Record<string, ServiceReadiness>>;

/**
 * Runs every check at once, each bounded by `timeoutMs`: the body of every /readyz. With
 * `backingServices`, also reports those (read in parallel, bounded the same way): they are shown
 * in `services` and do not change `ok`, which is about this process alone. A failed read leaves
 * `services` out (Redis is down: the `redis` check says so).
 */
export async function runReadinessChecks(
  service: string,
  checks: Record<string, ReadinessCheckFn>,
  timeoutMs: number,
  backingServices?: BackingServicesReader,
): Promise<ReadinessResponse> {
  const services =
    backingServices === undefined
      ? Promise.resolve(undefined)
      : withTimeout(backingServices(), timeoutMs).catch(() => undefined);
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, ReadinessCheck]> => {
      try {
        await withTimeout(check(), timeoutMs);
        return [name, { ok: true }];
      } catch (err) {
        return [name, { ok: false, error: shortReason(err) }];
      }
    }),
  );
  const results = Object.fromEntries(entries);
  const report: ReadinessResponse = {
    ok: entries.every(([, result]) => result.ok),
    service,
    checks: results,
  };
  const backing = await services;
  return backing === undefined ? report : { ...report, services: backing };
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** `scheme://user:password@` in driver errors (connection strings): keep the user, drop the password. */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^:@\s/]*:)[^@\s/]+@/gi;

/** One safe line: no secrets (API keys, connection-string passwords), bounded length. */
function shortReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const line = scrubSecrets(message.replace(URL_PASSWORD, '$1***@')).split('\n')[0] ?? '';
  return line.length > MAX_ERROR_LENGTH ? `${line.slice(0, MAX_ERROR_LENGTH)}…` : line;
}

export interface ReadinessReporterOptions {
  /** ms: a check (or the read of `backingServices`) still unanswered by then has failed. */
  timeoutMs?: number;
  /** The services this one fronts, reported in `services` (the gateway's public /readyz). */
  backingServices?: BackingServicesReader;
}

/** `runReadinessChecks` bound to one service's checks (the gateway serves it on its public port). */
export function readinessReporter(
  service: string,
  checks: Record<string, ReadinessCheckFn>,
  options: ReadinessReporterOptions = {},
): () => Promise<ReadinessResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  return () => runReadinessChecks(service, checks, timeoutMs, options.backingServices);
}
