import type { ReadinessCheck, ReadinessResponse } from '@svc/contracts';
import { scrubSecrets } from '@svc/log';
import type { ReadinessCheckFn } from '@svc/service-kit';

// ms: a check still unanswered by then counts as failed, so /readyz answers promptly (probe timeouts
// are typically 1-5 s) even when Redis or PostgreSQL hangs instead of refusing.
const DEFAULT_CHECK_TIMEOUT_MS = 1_000;
const MAX_REASON_LENGTH = 200; // chars
// `scheme://user:password@` in driver errors: drop the password.
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^:@\s/]*:)[^@\s/]+@/gi;

function reason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const line = scrubSecrets(message.replace(URL_PASSWORD, '$1***@')).split('\n')[0] ?? '';
  return line.length > MAX_REASON_LENGTH ? `${line.slice(0, MAX_REASON_LENGTH)}…` : line;
}

async function bounded(check: ReadinessCheckFn, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([check(), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The public /readyz report: every check at once, each bounded by `timeoutMs`. The same semantics as
 * @svc/service-kit's health server (which serves these checks on HEALTH_PORT too); that package
 * does not export its runner, hence this small twin.
 */
export function readinessReporter(
  service: string,
  checks: Record<string, ReadinessCheckFn>,
  timeoutMs = DEFAULT_CHECK_TIMEOUT_MS,
): () => Promise<ReadinessResponse> {
  return async () => {
    const entries = await Promise.all(
      Object.entries(checks).map(async ([name, check]): Promise<[string, ReadinessCheck]> => {
        try {
          await bounded(check, timeoutMs);
          return [name, { ok: true }];
        } catch (err) {
          return [name, { ok: false, error: reason(err) }];
        }
      }),
    );
    return { ok: entries.every(([, result]) => result.ok), service, checks: Object.fromEntries(entries) };
  };
}
