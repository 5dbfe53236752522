/**
 * A provider request that did not give a usable answer. `reason` is short, safe to store with the
 * run and to show to clients (no URL with secrets, no token: the token travels only in a header).
 */
export class ProviderError extends Error {
  /** Short cause, e.g. `HTTP 502`, `timed out after 15000 ms`, `connection failed (ECONNREFUSED)`. */
  readonly reason: string;
  /** Worth another attempt: network errors, timeouts, 429 and 5xx (not other 4xx or bad JSON). */
  readonly retryable: boolean;
  /** ms: the provider's Retry-After, when it sent one. */
  readonly retryAfterMs: number | undefined;
  /** What a library said about the failure (e.g. the JSON parser's message): for logs, never shown. */
  readonly detail: string | undefined;
  /** HTTP attempts made before giving up (set by the retry loop). */
  attempts = 1;

  constructor(
    reason: string,
    options: { retryable: boolean; retryAfterMs?: number; cause?: unknown; detail?: string },
  ) {
    super(reason, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ProviderError';
    this.reason = reason;
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.detail = options.detail;
  }

  /** `reason`, plus how many attempts it took when more than one. */
  describe(): string {
    return this.attempts > 1 ? `${this.reason} (after ${this.attempts} attempts)` : this.reason;
  }
}

/** The provider's time budget ran out before (another) attempt could start. */
export function budgetExhausted(): ProviderError {
  return new ProviderError('no time left in the run deadline', { retryable: false });
}

/**
 * Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date → ms from `nowMs`; undefined when
 * absent or unreadable.
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - nowMs) : undefined;
}

/** A network-level failure of fetch (undici puts the system error code in `cause`). */
export function networkError(err: unknown): ProviderError {
  const code = causeCode(err);
  return new ProviderError(code ? `connection failed (${code})` : 'connection failed', {
    retryable: true,
    cause: err,
  });
}

function causeCode(err: unknown): string | undefined {
  let current: unknown = err;
  // undici nests: TypeError('fetch failed') → cause: Error with `code` (sometimes one level deeper).
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    const code: unknown = Reflect.get(current, 'code');
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}
