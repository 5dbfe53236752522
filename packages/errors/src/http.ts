import type { ErrorResponse } from '@svc/contracts';
import { isAppError } from './app-error';
import { storeUnavailableError } from './store-unavailable';

/** The only thing clients learn about an error we did not anticipate (spec §7.4: not shown). */
export const INTERNAL_ERROR_MESSAGE = 'internal error';

/**
 * Maps any thrown value to an HTTP status and ErrorResponse body (spec §7.1). Only AppErrors with
 * `expose` keep their message; everything else (unknown errors, ZodErrors from our own parsing,
 * non-exposed 5xx) becomes 500 or the AppError's 5xx with "internal error", never internals.
 * An error that says PostgreSQL or Redis is unreachable becomes 503 naming the store (D1): the
 * request may succeed once the store is back.
 */
export function toErrorResponse(err: unknown): { status: number; body: ErrorResponse } {
  const unavailable = storeUnavailableError(err);
  if (unavailable !== undefined) return { status: 503, body: { ok: false, error: unavailable.message } };
  if (isAppError(err)) {
    return {
      status: err.status,
      body: { ok: false, error: err.expose ? err.message : INTERNAL_ERROR_MESSAGE },
    };
  }
  return { status: 500, body: { ok: false, error: INTERNAL_ERROR_MESSAGE } };
}
