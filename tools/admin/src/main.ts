import { runAdmin } from './cli';
import { readPasswordFromStdin } from './commands/accounts';

// `pnpm admin <command>` (bin/admin.cjs): the CLI of cli.ts on this process's environment, cwd,
// stdout, stderr and stdin.
runAdmin(process.argv.slice(2), {
  env: process.env,
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readPassword: () => readPasswordFromStdin(),
}).then((code) => {
  process.exitCode = code;
});
