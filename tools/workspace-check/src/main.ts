import { runWorkspaceCheck } from './cli';

/** `pnpm lint:workspace [root]` (part of `pnpm lint`): wiring only, see cli.ts. */
runWorkspaceCheck(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`workspace check: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
