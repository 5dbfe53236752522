export {
  AppError,
  type AppErrorOptions,
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
export { formatIssuePath, formatZodError } from './format-zod-error';
export { INTERNAL_ERROR_MESSAGE, toErrorResponse } from './http';
export {
  assertSafeJson,
  findUnsafeJson,
  type SafeJsonOptions,
  type UnsafeJsonProblem,
  unsafeJsonMessage,
  unsafeTextReason,
} from './safe-json';
export { storeUnavailableError, type UnavailableStore, unavailableStore } from './store-unavailable';
export { deserializeError, serializeError, WireError } from './wire';
