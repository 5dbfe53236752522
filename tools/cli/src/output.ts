import { DeadlineExceededError, RunAbortedError, SvcError } from '@svc/sdk';
import pc from 'picocolors';
import { type ExitCode, exitCodeFor } from './exit-codes';

/** Where a command writes; tests pass their own. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** stderr is a terminal: progress may redraw a spinner there. */
  readonly interactive: boolean;
  /** Colours in human output (a terminal, no NO_COLOR). */
  readonly color: boolean;
}

export function processIo(): Io {
  // A terminal of known width: a spinner redraws by counting wrapped lines, which a pty without a
  // size (columns 0, e.g. `script` without a terminal) turns into an endless stream of clears.
  const interactive =
    process.stderr.isTTY === true && process.env.TERM !== 'dumb' && (process.stderr.columns ?? 0) > 0;
  // A reader that went away (`svc … | jq` after Ctrl-C, pnpm's pipe, a closed terminal) must not end
  // svc with an unhandled EPIPE/EIO before the cancel of a waited run is sent (interrupts.ts): what
  // nobody reads is dropped.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const write = (stream: NodeJS.WriteStream, text: string) => {
    if (!stream.destroyed && stream.writable) stream.write(text);
  };
  return {
    stdout: (text) => write(process.stdout, text),
    stderr: (text) => write(process.stderr, text),
    interactive,
    color: process.stdout.isTTY === true && pc.isColorSupported,
  };
}

export type Colors = ReturnType<typeof pc.createColors>;

/**
 * One command's output. `--json`: stdout carries exactly one JSON value, the API's answer (or, on
 * failure, `{ok: false, error, status, exit_code}`); messages and progress go to stderr. Human:
 * readable text on stdout, errors on stderr as `svc: …`.
 */
export class Output {
  readonly c: Colors;

  constructor(
    readonly io: Io,
    readonly json: boolean,
  ) {
    this.c = pc.createColors(io.color && !json);
  }

  /** The command's answer: `value` as JSON with --json, `human()` otherwise. */
  result(value: unknown, human: () => string): void {
    if (this.json) this.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
    else {
      const text = human();
      this.io.stdout(text.endsWith('\n') ? text : `${text}\n`);
    }
  }

  /** A message for the person (stderr, also with --json). */
  note(line: string): void {
    this.io.stderr(`${line}\n`);
  }

  /** Reports a failed command and returns its exit code. */
  fail(error: unknown, code: ExitCode = exitCodeFor(error)): ExitCode {
    const message = errorMessage(error);
    const status = error instanceof SvcError && error.status > 0 ? error.status : null;
    if (this.json) {
      this.io.stdout(`${JSON.stringify(errorObject(error, code), null, 2)}\n`);
    }
    const prefix = status === null ? '' : `${status} `;
    this.io.stderr(`svc: ${prefix}${message}\n`);
    return code;
  }
}

/** The JSON error object of `--json`: the API's error text, its HTTP status (null if none) and the exit code. */
export function errorObject(error: unknown, code: ExitCode): Record<string, unknown> {
  const object: Record<string, unknown> = {
    ok: false,
    error: errorMessage(error),
    status: error instanceof SvcError && error.status > 0 ? error.status : null,
    exit_code: code,
  };
  if (error instanceof Error && error.name !== 'Error') object.kind = error.name;
  const runId = (error as { runId?: unknown } | null)?.runId;
  if (typeof runId === 'string') object.run_id = runId;
  // A run given up on (Ctrl-C, --deadline): the state its cancel left it in, `cancelled` or still
  // `running` (cooperative: it may yet complete and be charged).
  if (error instanceof RunAbortedError || error instanceof DeadlineExceededError) {
    if (error.cancelAnswer !== undefined) object.run_status = error.cancelAnswer.status;
  }
  return object;
}

export function errorMessage(error: unknown): string {
  if (error instanceof SvcError) return error.error || error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
