import { isAppError } from '@svc/errors';
import { resolveRequestId } from '@svc/http-kit';
import type { PageContext } from '../page-kit';

/** The request's id, which the vault's audit lines carry (as for the API's vault routes). */
export function requestIdOf(ctx: PageContext): string {
  return ctx.res.locals.requestId ?? resolveRequestId(undefined);
}

export { idParam as uuidParam } from './runs-query';

/** A form field as one string ('' when absent or repeated). */
export function formText(body: unknown, name: string): string {
  const value: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, name) : undefined;
  return typeof value === 'string' ? value : '';
}

/**
 * A refusal the person can fix on the same form (409 stale version or existing name, 422 a value
 * that fails its type's check: the vault's words name the field and the rule, never the value).
 */
export function formRefusal(err: unknown): { status: number; message: string } | null {
  if (isAppError(err) && (err.status === 409 || err.status === 422))
    return { status: err.status, message: err.message };
  return null;
}
