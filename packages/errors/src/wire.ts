import { z } from 'zod';
import {
  AppError,
  BadGatewayError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GatewayTimeoutError,
  InternalError,
  isAppError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  PaymentRequiredError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
} from './app-error';
import { INTERNAL_ERROR_MESSAGE } from './http';

/** An error as it crosses the bus (RPC replies): status and message, nothing else. */
export const WireError = z
  .object({
    status: z.number().int().min(400).max(599),
    message: z.string(),
  })
  .strict();
export type WireError = z.infer<typeof WireError>;

const CLASSES: Record<number, new (message: string) => AppError> = {
  400: BadRequestError,
  401: UnauthorizedError,
  402: PaymentRequiredError,
  403: ForbiddenError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: ValidationError,
  500: InternalError,
  502: BadGatewayError,
  503: ServiceUnavailableError,
  504: GatewayTimeoutError,
};

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
  const ErrorClass = CLASSES[status];
  return ErrorClass ? new ErrorClass(message) : new AppError(status, message);
}
