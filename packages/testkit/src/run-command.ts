import { spawn } from 'node:child_process';

/** What a finished command printed and how it exited. */
export interface CommandResult {
  /** Exit code; null when a signal ended it. */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunCommandOptions {
  cwd?: string;
  /** The whole environment of the child (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Written to the child's standard input, which is then closed (default: stdin closed at once). */
  stdin?: string;
}

/**
 * Runs `command args…` to its end (stdin closed, or fed `options.stdin`) and collects its output: for tests of CLIs and
 * fixture scripts that assert on exit codes and printed lines. Rejects only when it cannot start.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RunCommandOptions = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // Closed at once when there is nothing to write: the child reads end-of-file, as from /dev/null.
    child.stdin.end(options.stdin ?? '');
  });
}
