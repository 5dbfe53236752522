import {
  ApiError,
  ArtifactIntegrityError,
  AuthenticationError,
  CapabilityNotRunnableError,
  ConflictError,
  DeadlineExceededError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  RunAbortedError,
  ServiceUnavailableError,
  UnknownRunStateError,
  UploadRejectedError,
  ValidationError,
} from '@svc/sdk';
import { ConfigError } from './config';
import { EXIT, exitCodeFor, exitCodeForStatus } from './exit-codes';
import { UsageError } from './usage-error';

describe('exit codes', () => {
  it.each([
    [200, EXIT.ok],
    [400, EXIT.failure],
    [401, EXIT.refused],
    [402, EXIT.refused],
    [403, EXIT.refused],
    [404, EXIT.notFound],
    [405, EXIT.failure],
    [408, EXIT.unavailable],
    [409, EXIT.refused],
    [413, EXIT.refused],
    [415, EXIT.refused],
    [422, EXIT.refused],
    [429, EXIT.unavailable],
    [500, EXIT.unavailable],
    [502, EXIT.unavailable],
    [503, EXIT.unavailable],
    [0, EXIT.unavailable],
  ])('status %d → exit %d', (status, code) => {
    expect(exitCodeForStatus(status)).toBe(code);
  });

  it('maps the SDK errors and the CLI own ones', () => {
    const cases: Array<[unknown, number]> = [
      [new UsageError('x'), 2],
      [new ConfigError('x'), 2],
      [new PaymentRequiredError(402, 'insufficient balance'), 3],
      [new PermissionDeniedError(403, 'missing scope'), 3],
      [new ConflictError(409, 'describe_only'), 3],
      [new ValidationError(422, 'input.text: required'), 3],
      [new AuthenticationError(401, 'invalid key'), 3],
      [new NotFoundError(404, 'unknown run'), 5],
      [new ServiceUnavailableError(503, 'down'), 4],
      [new RateLimitError(429, 'slow down'), 4],
      [new ApiError(405, 'method'), 1],
      [new Error('bug'), 1],
    ];
    for (const [error, code] of cases) expect([error, exitCodeFor(error)]).toEqual([error, code]);
  });

  it('maps the SDK client-side errors (status 0) by class', () => {
    expect(
      exitCodeFor(new CapabilityNotRunnableError('whois is describe_only', 'whois', 'describe_only')),
    ).toBe(3);
    expect(exitCodeFor(new UploadRejectedError('takes no files'))).toBe(3);
    expect(exitCodeFor(new NetworkError('fetch failed'))).toBe(4);
    expect(exitCodeFor(new DeadlineExceededError('deadline', 'r'))).toBe(4);
    const digest = { sizeBytes: 1, sha256: 'a' };
    expect(exitCodeFor(new ArtifactIntegrityError('sha256 differs', digest, digest))).toBe(1);
    expect(exitCodeFor(new InvalidResponseError(200, 'not the contract'))).toBe(1);
    expect(exitCodeFor(new UnknownRunStateError('r', 'paused'))).toBe(1);
    expect(exitCodeFor(new RunAbortedError('interrupted', 'r'))).toBe(1);
    expect(exitCodeFor(new ApiError(413, 'too large'))).toBe(3);
    expect(exitCodeFor(new ApiError(408, 'slow body'))).toBe(4);
  });
});
