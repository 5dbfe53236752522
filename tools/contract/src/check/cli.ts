import { parseArgs } from 'node:util';
import { type Approval, parseApprovals } from './approvals';
import { checkCompatibility, EXIT } from './check';
import { parseManifest, UnknownInputError } from './manifest';
import { humanReport, jsonError, jsonReport } from './report';
import { readBaseline, readInputFile, UsageError } from './sources';

export const CHECK_USAGE =
  'usage: pnpm contract check --baseline <file | git ref | ref:path | changelog:previous> --candidate <file> [--approvals <file>] [--json]\n';

export interface CheckIo {
  readonly cwd: string;
  /** The UTC date approvals' expiry is compared with (tests pin it). */
  readonly today: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const defaultIo = (): CheckIo => ({
  // `pnpm contract …` runs in the repository root; relative paths are the caller's (pnpm's INIT_CWD).
  cwd: process.env.INIT_CWD ?? process.cwd(),
  today: new Date().toISOString().slice(0, 10),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});

/** `pnpm contract check …`: prints the report and resolves to the exit code (see EXIT). */
export async function runCheck(argv: string[], io: Partial<CheckIo> = {}): Promise<number> {
  const { cwd, today, stdout, stderr } = { ...defaultIo(), ...io };
  const json = argv.includes('--json');
  const fail = (exitCode: number, kind: 'usage' | 'unknown-input', error: Error, extra: object = {}) => {
    if (json) stdout(`${JSON.stringify(jsonError(exitCode, kind, error.message, extra), null, 2)}\n`);
    stderr(`contract check: ${error.message}\n${exitCode === EXIT.usage ? CHECK_USAGE : ''}`);
    return exitCode;
  };
  try {
    const values = parseFlags(argv);
    if (values.baseline === undefined || values.candidate === undefined) {
      throw new UsageError('--baseline and --candidate are required');
    }
    const baselineText = readBaseline(values.baseline, cwd);
    const candidateText = readInputFile(values.candidate, cwd, '--candidate');
    const approvalsText =
      values.approvals === undefined ? undefined : readInputFile(values.approvals, cwd, '--approvals');
    const baseline = {
      ...parseManifest(baselineText.text, baselineText.source),
      source: baselineText.source,
    };
    const candidate = {
      ...parseManifest(candidateText.text, candidateText.source),
      source: candidateText.source,
    };
    const approvals: Approval[] =
      approvalsText === undefined ? [] : parseApprovals(approvalsText.text, approvalsText.source);
    const result = checkCompatibility({ baseline, candidate, approvals, today });
    stdout(json ? `${JSON.stringify(jsonReport(result), null, 2)}\n` : humanReport(result));
    return result.exitCode;
  } catch (error) {
    if (error instanceof UnknownInputError) {
      return fail(EXIT.unknownInput, 'unknown-input', error, {
        element: error.element ?? null,
        field: error.field ?? null,
      });
    }
    if (error instanceof UsageError) return fail(EXIT.usage, 'usage', error);
    throw error;
  }
}

function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        baseline: { type: 'string' },
        candidate: { type: 'string' },
        approvals: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    // Unknown or malformed flags (ERR_PARSE_ARGS_*): a usage error, whatever realm the error is from.
    throw new UsageError(String((error as { message?: unknown }).message ?? error));
  }
}
