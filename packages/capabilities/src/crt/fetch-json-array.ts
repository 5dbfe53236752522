import { InvalidJsonError, JsonArrayStream } from './json-array-stream';
import { networkError, ProviderError, parseRetryAfter } from './provider-error';

/** One HTTP attempt that streams a JSON array answer (Node 20's global fetch, i.e. undici). */
export interface JsonArrayRequest {
  url: string;
  headers: Record<string, string>;
  /** ms: this attempt, headers and body (already cut to what is left of the provider's budget). */
  timeoutMs: number;
  /** The job's signal: aborting it ends the attempt with its reason (not a ProviderError). */
  signal: AbortSignal;
  /** bytes (decompressed) to read at most; the rest of the answer is dropped. */
  maxBytes: number;
  onItem: (item: unknown) => void;
  /** Clock for Retry-After dates; default Date.now. */
  now?: () => number;
}

export interface JsonArrayAnswer {
  items: number;
  bytes: number;
  /** The cap cut the answer: more elements existed. */
  truncated: boolean;
}

/**
 * GETs `url` and feeds the array's elements to `onItem`. Throws ProviderError: retryable for
 * network errors, timeouts, 429 and 5xx (with the Retry-After it sent); not retryable for other
 * statuses and for answers that are not a JSON array (asking again gives the same bytes).
 */
export async function fetchJsonArray(request: JsonArrayRequest): Promise<JsonArrayAnswer> {
  const timeout = AbortSignal.timeout(Math.max(1, request.timeoutMs));
  const signal = AbortSignal.any([timeout, request.signal]);
  const failed = (err: unknown): unknown => {
    if (request.signal.aborted) return request.signal.reason;
    if (timeout.aborted)
      return new ProviderError(`timed out after ${request.timeoutMs} ms`, { retryable: true, cause: err });
    if (err instanceof ProviderError) return err;
    if (err instanceof InvalidJsonError) {
      return new ProviderError(err.message, {
        retryable: false,
        ...(err.detail === undefined ? {} : { detail: err.detail }),
      });
    }
    return networkError(err);
  };

  let response: Response;
  try {
    response = await fetch(request.url, { headers: request.headers, signal, redirect: 'follow' });
  } catch (err) {
    throw failed(err);
  }

  if (!response.ok) {
    // Release the connection without reading an error page we do not use.
    await response.body?.cancel().catch(() => undefined);
    const status = response.status;
    const retryable = status === 429 || status >= 500;
    const retryAfterMs = retryable
      ? parseRetryAfter(response.headers.get('retry-after'), (request.now ?? Date.now)())
      : undefined;
    throw new ProviderError(`HTTP ${status}`, { retryable, retryAfterMs });
  }
  if (!response.body) throw new ProviderError('empty answer', { retryable: false });

  const stream = new JsonArrayStream(request.maxBytes, request.onItem);
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!stream.write(value)) {
        // Cap reached: stop the download; the parsed part is the answer (flagged truncated).
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
    stream.end();
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    throw failed(err);
  } finally {
    reader.releaseLock();
  }
  return { items: stream.items, bytes: stream.bytes, truncated: stream.truncated };
}
