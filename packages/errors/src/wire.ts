import { z } from 'zod';
import { APP_ERROR_CLASSES, AppError, InternalError, isAppError } from './app-error';
import { INTERNAL_ERROR_MESSAGE } from './http';

/** An error as it crosses the bus (RPC replies): status and message, nothing else. */
export const WireError = z
  .object({
    status: z.number().int().min(400).max(599),
    message: z.string(),
  })
  .strict();
export type WireError = z.infer<typeof WireError>;

/**
 * Turns a thrown value into a WireError. AppErrors keep status and message (the receiving side
 * decides exposure from the status again); anything else is sent as 500 "internal error" so no
 * stack, SQL or connection string leaves the process that logged it.
 */
export function serializeError(err: unknown): WireError {
  if (isAppError(err)) return { status: err.status, message: err.message };
  return { status: 500, message: INTERNAL_ERROR_MESSAGE };
}

/**
 * Rebuilds the AppError subclass for a WireError (e.g. 404 -> NotFoundError), or a plain AppError
 * for a status without a subclass. Malformed input (a remote bug) becomes InternalError.
 */
export function deserializeError(wire: unknown): AppError {
  const parsed = WireError.safeParse(wire);
  if (!parsed.success) return new InternalError('malformed error from a remote service');
  const { status, message } = parsed.data;
  const ErrorClass = APP_ERROR_CLASSES[status];
  return ErrorClass ? new ErrorClass(message) : new AppError(status, message);
}
