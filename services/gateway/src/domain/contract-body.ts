import { formatZodError, InternalError } from '@svc/errors';
import type { z } from 'zod';

/**
 * Parses a response body we built against its contract schema (strict: exactly the contract's
 * fields). A mismatch is our bug, never the client's: 500 "internal error" to the client, the
 * reason on the request's log line.
 */
export function checkedBody<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new InternalError(`${what} does not match its contract: ${formatZodError(parsed.error)}`);
  }
  return parsed.data;
}
