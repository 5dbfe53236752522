import {
  ArtifactIntegrityError,
  CapabilityNotRunnableError,
  DeadlineExceededError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  RunAbortedError,
  ServiceUnavailableError,
  SvcError,
  UnknownRunStateError,
  UploadRejectedError,
} from '@svc/sdk';
import { ConfigError } from './config';
import { InterruptedError } from './secret-input';
import { UsageError } from './usage-error';

/**
 * `svc` exit codes (docs/decisions.md SC2; also in `svc --help`). A script branches on them:
 * 3 means "the platform said no, do not retry as is", 4 "try again later".
 */
export const EXIT = {
  ok: 0,
  /** Anything else: a run that ended failed or cancelled, a refused download (SHA-256), a bug. */
  failure: 1,
  /** Bad flags or arguments, unreadable --input, no API key, an unsafe config file. */
  usage: 2,
  /** Refused: 401, 402, 403, 409, 413, 415, 422, a capability that cannot be run, a file describe rules out. */
  refused: 3,
  /** Unavailable: network error, 5xx, 408, 429 (after the SDK's retries), the --deadline passed. */
  unavailable: 4,
  /** Not found: 404 (an unknown slug, run, upload or artifact; another client's looks the same). */
  notFound: 5,
  /** Ctrl-C (a run being waited for is cancelled on the server first; interrupts.ts), or at the login prompt. */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes:
  0  ok
  1  anything else (a run that ended failed or cancelled, a download whose SHA-256 did not match)
  2  usage error (bad flags or --input, no API key, a config file others can read)
  3  refused (401, 402, 403, 409, 413, 415, 422; a describe_only or blocked capability; a file describe rules out)
  4  unavailable (network, 5xx, 408, 429, --deadline passed)
  5  not found (404)
  130  interrupted (Ctrl-C; a run being waited for is cancelled on the server first;
       143/129: SIGTERM/SIGHUP during such a wait, which cancels it too)
`;

const REFUSED_STATUSES = new Set([401, 402, 403, 409, 413, 415, 422]);
const UNAVAILABLE_STATUSES = new Set([408, 429]);

type ErrorClass = abstract new (...args: never[]) => Error;

/** Refused with no status to go by: a capability that cannot be run, a file describe rules out. */
const REFUSED_ERRORS: readonly ErrorClass[] = [CapabilityNotRunnableError, UploadRejectedError];
/** Try again later: no answer, the deadline passed, or 5xx/429 once the SDK's retries are spent. */
const UNAVAILABLE_ERRORS: readonly ErrorClass[] = [
  NetworkError,
  DeadlineExceededError,
  ServiceUnavailableError,
  RateLimitError,
];
// A body off the contract, an unknown run state, a refused download, Ctrl-C (main: 130): no
// status decides these, whatever the answer's own status was.
const FAILURE_ERRORS: readonly ErrorClass[] = [
  ArtifactIntegrityError,
  InvalidResponseError,
  UnknownRunStateError,
  RunAbortedError,
];

function isOneOf(error: unknown, classes: readonly ErrorClass[]): boolean {
  return classes.some((errorClass) => error instanceof errorClass);
}

/** The exit code for an error thrown by a command. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError || error instanceof ConfigError) return EXIT.usage;
  if (error instanceof InterruptedError) return EXIT.interrupted;
  if (isOneOf(error, REFUSED_ERRORS)) return EXIT.refused;
  if (isOneOf(error, UNAVAILABLE_ERRORS)) return EXIT.unavailable;
  if (error instanceof NotFoundError) return EXIT.notFound;
  if (isOneOf(error, FAILURE_ERRORS)) return EXIT.failure;
  if (error instanceof SvcError && error.status > 0) return exitCodeForStatus(error.status);
  return EXIT.failure;
}

/** An HTTP status → exit code (0 for 2xx; status 0 = no answer). */
export function exitCodeForStatus(status: number): ExitCode {
  if (status >= 200 && status < 300) return EXIT.ok;
  if (status === 404) return EXIT.notFound;
  if (REFUSED_STATUSES.has(status)) return EXIT.refused;
  if (status === 0 || status >= 500 || UNAVAILABLE_STATUSES.has(status)) return EXIT.unavailable;
  return EXIT.failure;
}
