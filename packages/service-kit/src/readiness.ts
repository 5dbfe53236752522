import type { ReadinessCheck, ReadinessResponse } from '@svc/contracts';
import { scrubSecrets } from '@svc/log';
import type { ReadinessCheckFn } from './checks';

/**
 * ms: a check still unanswered by then counts as failed, so /readyz answers promptly (probe
 * timeouts are typically 1-5 s) even when Redis or PostgreSQL hangs instead of refusing.
 */
export const DEFAULT_CHECK_TIMEOUT_MS = 1_000;
/** characters: readiness errors are one short line (they may be shown on dashboards). */
const MAX_ERROR_LENGTH = 200;

/** Runs every check at once, each bounded by `timeoutMs`: the body of every /readyz. */
export async function runReadinessChecks(
  service: string,
  checks: Record<string, ReadinessCheckFn>,
  timeoutMs: number,
): Promise<ReadinessResponse> {
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
  return { ok: entries.every(([, result]) => result.ok), service, checks: results };
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

/** `runReadinessChecks` bound to one service's checks (the gateway serves it on its public port). */
export function readinessReporter(
  service: string,
  checks: Record<string, ReadinessCheckFn>,
  timeoutMs = DEFAULT_CHECK_TIMEOUT_MS,
): () => Promise<ReadinessResponse> {
  return () => runReadinessChecks(service, checks, timeoutMs);
}
