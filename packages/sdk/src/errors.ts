import type { RunStatusResponse } from '@svc/contracts';

/**
 * The SDK's errors: one class per cause a caller branches on. `status` is the HTTP status of the
 * answer (0 when no answer decides it: a network failure, a client-side refusal, a deadline) and
 * `error` the platform's ErrorResponse text (`{ok:false, error}`), or the SDK's own message.
 */
export class SvcError extends Error {
  override name = 'SvcError';
  constructor(
    readonly status: number,
    readonly error: string,
    options: { cause?: unknown; requestId?: string } = {},
  ) {
    super(
      status > 0 ? `${status}: ${error}` : error,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    this.requestId = options.requestId;
  }
  readonly requestId: string | undefined;
}

/** 400: the request could not be parsed at all. */
export class BadRequestError extends SvcError {
  override name = 'BadRequestError';
}
/** 401: no key, or an invalid one. */
export class AuthenticationError extends SvcError {
  override name = 'AuthenticationError';
}
/** 402: the balance or the spend cap cannot cover the price. Never retried. */
export class PaymentRequiredError extends SvcError {
  override name = 'PaymentRequiredError';
}
/** 403: the key lacks the scope (or a download link of another client). */
export class PermissionDeniedError extends SvcError {
  override name = 'PermissionDeniedError';
}
/** 404: unknown capability, run, quote or artifact (another client's is the same 404). */
export class NotFoundError extends SvcError {
  override name = 'NotFoundError';
}
/** 409: a state conflict (describe_only, quote expired or used, cancelling a finished run). */
export class ConflictError extends SvcError {
  override name = 'ConflictError';
}
/** 422: invalid input (also an Idempotency-Key reused with a different request). */
export class ValidationError extends SvcError {
  override name = 'ValidationError';
}
/** 429: over a rate limit; thrown once the retries are spent. */
export class RateLimitError extends SvcError {
  override name = 'RateLimitError';
  retryAfterMs: number | undefined;
}
/** 5xx: the platform or a backing service is unavailable; thrown once the retries are spent. */
export class ServiceUnavailableError extends SvcError {
  override name = 'ServiceUnavailableError';
}
/** Any other non-2xx status (405, 408, 413, 415, …). */
export class ApiError extends SvcError {
  override name = 'ApiError';
}
/** No answer: connection refused or reset, DNS, or the per-request timeout. Retried, then thrown. */
export class NetworkError extends SvcError {
  override name = 'NetworkError';
  constructor(message: string, cause?: unknown) {
    super(0, message, { cause });
  }
}
/** A 2xx answer whose body does not match the contract's schema (or is not JSON). */
export class InvalidResponseError extends SvcError {
  override name = 'InvalidResponseError';
}
/**
 * The overall deadline of run()/waitForRun() passed; the run's cancel was sent (best effort).
 * `cancelAnswer` is the run as the cancel left it: `cancelled`, or still `running` with
 * `cancel_requested_at` set (cooperative, spec §3: it may yet complete and be charged); undefined
 * when no run was started or the cancel failed (`cancelError`; a 409 for a run that had ended is not one).
 */
export class DeadlineExceededError extends SvcError {
  override name = 'DeadlineExceededError';
  constructor(
    message: string,
    readonly runId: string | undefined,
    readonly cancelError?: unknown,
    readonly cancelAnswer?: RunStatusResponse,
  ) {
    super(0, message);
  }
}
/** The caller's AbortSignal fired; the run's cancel was sent (best effort), as for DeadlineExceededError. */
export class RunAbortedError extends SvcError {
  override name = 'RunAbortedError';
  constructor(
    message: string,
    readonly runId: string | undefined,
    readonly cancelError?: unknown,
    readonly cancelAnswer?: RunStatusResponse,
  ) {
    super(0, message);
  }
}
/** The platform reported a run state the contracts do not know: an error, never a hang. */
export class UnknownRunStateError extends SvcError {
  override name = 'UnknownRunStateError';
  constructor(
    readonly runId: string,
    readonly state: unknown,
  ) {
    super(0, `run ${runId} is in state ${JSON.stringify(state)}, which the contract does not define`);
  }
}
/** A downloaded artifact's size or SHA-256 differs from its manifest entry; the file was deleted. */
export class ArtifactIntegrityError extends SvcError {
  override name = 'ArtifactIntegrityError';
  constructor(
    message: string,
    readonly expected: { sizeBytes: number; sha256: string },
    readonly actual: { sizeBytes: number; sha256: string },
  ) {
    super(0, message);
  }
}
/** Spec §2.1: the capability is describe_only (or its mode is missing or unknown); nothing was quoted. */
export class CapabilityNotRunnableError extends SvcError {
  override name = 'CapabilityNotRunnableError';
  constructor(
    message: string,
    readonly slug: string,
    readonly rawStatus: string,
  ) {
    super(0, message);
  }
}
/** A file fails the capability's `file_requirements` (or cannot be read); no byte was sent. */
export class UploadRejectedError extends SvcError {
  override name = 'UploadRejectedError';
  constructor(message: string) {
    super(0, message);
  }
}

/** The error class of a non-2xx status. */
export function errorForStatus(status: number, error: string, requestId?: string): SvcError {
  const options = requestId === undefined ? {} : { requestId };
  switch (status) {
    case 400:
      return new BadRequestError(status, error, options);
    case 401:
      return new AuthenticationError(status, error, options);
    case 402:
      return new PaymentRequiredError(status, error, options);
    case 403:
      return new PermissionDeniedError(status, error, options);
    case 404:
      return new NotFoundError(status, error, options);
    case 409:
      return new ConflictError(status, error, options);
    case 422:
      return new ValidationError(status, error, options);
    case 429:
      return new RateLimitError(status, error, options);
    default:
      return status >= 500
        ? new ServiceUnavailableError(status, error, options)
        : new ApiError(status, error, options);
  }
}
