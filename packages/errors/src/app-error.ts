/** Options of every AppError. */
export interface AppErrorOptions {
  /** Whether `message` may be shown to API clients. Default: status < 500, or 503/504. */
  expose?: boolean;
  /** The underlying error, kept for logs (never sent to clients or across the bus). */
  cause?: unknown;
}

/**
 * An error that knows its HTTP status. Throw these from domain code; the gateway turns them into
 * an ErrorResponse with toErrorResponse(), and they cross the bus with serializeError().
 *
 * `expose` says whether the message is safe for clients: 4xx messages describe the client's own
 * request; 503/504 carry a safe "service unavailable/timed out" message; other 5xx messages may
 * hold internals and are replaced by "internal error".
 */
export class AppError extends Error {
  readonly status: number;
  readonly expose: boolean;

  constructor(status: number, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`AppError status must be an integer 400..599, got ${status}`);
    }
    this.name = new.target.name;
    this.status = status;
    this.expose = options.expose ?? (status < 500 || status === 503 || status === 504);
  }
}

export class BadRequestError extends AppError {
  constructor(message = 'bad request', options?: AppErrorOptions) {
    super(400, message, options);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'unauthorized', options?: AppErrorOptions) {
    super(401, message, options);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'forbidden', options?: AppErrorOptions) {
    super(403, message, options);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'not found', options?: AppErrorOptions) {
    super(404, message, options);
  }
}

export class MethodNotAllowedError extends AppError {
  constructor(message = 'method not allowed', options?: AppErrorOptions) {
    super(405, message, options);
  }
}

/**
 * 402: a wallet or spend-cap hard stop (spec §1.6, §7.3): the message names the price and the limit
 * that stopped the run (docs/decisions.md Q5).
 */
export class PaymentRequiredError extends AppError {
  constructor(message = 'payment required', options?: AppErrorOptions) {
    super(402, message, options);
  }
}

export class ConflictError extends AppError {
  constructor(message = 'conflict', options?: AppErrorOptions) {
    super(409, message, options);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message = 'payload too large', options?: AppErrorOptions) {
    super(413, message, options);
  }
}

/** 422: the request is well-formed but its content breaks the contract (spec §7.2). */
export class ValidationError extends AppError {
  constructor(message = 'invalid request', options?: AppErrorOptions) {
    super(422, message, options);
  }
}

export class InternalError extends AppError {
  constructor(message = 'internal error', options?: AppErrorOptions) {
    super(500, message, options);
  }
}

/**
 * 502: an outside provider a capability depends on failed (e.g. every certificate-transparency
 * source). The message says which provider and why, so it is exposed.
 */
export class BadGatewayError extends AppError {
  constructor(message = 'bad gateway', options?: AppErrorOptions) {
    super(502, message, { expose: true, ...options });
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message = 'service unavailable', options?: AppErrorOptions) {
    super(503, message, options);
  }
}

export class GatewayTimeoutError extends AppError {
  constructor(message = 'gateway timeout', options?: AppErrorOptions) {
    super(504, message, options);
  }
}

/**
 * The subclass for each status that has one, e.g. 404 -> NotFoundError (deserializeError rebuilds
 * errors that crossed the bus with it).
 */
export const APP_ERROR_CLASSES: Readonly<Record<number, new (message: string) => AppError>> = {
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

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
