import type { Logger } from '@svc/log';

/** ms: at most one warning per window (a down Redis fails every count). */
export const FALLBACK_WARNING_WINDOW_MS = 10_000;

export interface FallbackWarningOptions {
  readonly logger: Logger;
  /** The line's message, e.g. "rate limiter: Redis unavailable, counting … in this process only". */
  readonly message: string;
  /** ms between two warnings; default FALLBACK_WARNING_WINDOW_MS. */
  readonly everyMs?: number;
  readonly now?: () => number;
}

/**
 * A SharedCounter's `onFallback` that warns at most once per window, with the number of counts
 * kept in memory since the last warning (`requests`) and the caller's fields (which counter).
 */
export function fallbackWarning(
  options: FallbackWarningOptions,
): (err: unknown, fields?: Readonly<Record<string, unknown>>) => void {
  const everyMs = options.everyMs ?? FALLBACK_WARNING_WINDOW_MS;
  const now = options.now ?? Date.now;
  let lastAt = Number.NEGATIVE_INFINITY;
  let since = 0;
  return (err, fields = {}) => {
    since += 1;
    const at = now();
    if (at - lastAt < everyMs) return;
    options.logger.warn(
      { err: err instanceof Error ? err.message : String(err), ...fields, requests: since },
      options.message,
    );
    lastAt = at;
    since = 0;
  };
}
