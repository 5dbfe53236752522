import path from 'node:path';
import { Readable } from 'node:stream';
import type { CommandResult } from '@svc/testkit';
import { runAdmin } from '../src/cli';
import { readPasswordFromStdin } from '../src/commands/accounts';

/**
 * `admin …` in this jest process: runAdmin, which the bin runs (src/main.ts only hands it the
 * process's environment, cwd, streams and stdin and sets the exit code), with the environment and
 * cwd a child would get, `stdin` as its standard input, and stdout and stderr collected. Saves a
 * node + tsx start (a second or more of CPU) per command; each suite still runs the bin as a child
 * where only a process shows the behaviour (its exit code and output, reading stdin, `pnpm admin`).
 */
export async function adminInProcess(
  args: readonly string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv; stdin?: string },
): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    env: options.env,
    cwd: options.cwd ?? path.resolve(__dirname, '../../..'),
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readPassword: () => readPasswordFromStdin(Readable.from([Buffer.from(options.stdin ?? '')])),
  });
  return { code, stdout, stderr };
}
