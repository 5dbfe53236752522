import { processIo } from './output';
import { runCli } from './program';

// `svc …` (tools/cli/bin/svc.cjs, or `pnpm svc …` from the workspace root). Wiring only: runCli
// resolves to the exit code (docs/decisions.md SC2). Ctrl-C aborts the command: a run being
// waited for is cancelled on the server first, then svc exits 130; a second Ctrl-C exits at once.
const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(130);
  process.stderr.write('\nsvc: interrupted; cancelling (Ctrl-C again to quit at once)\n');
  controller.abort(new Error('interrupted'));
});

runCli(process.argv.slice(2), {
  io: processIo(),
  env: process.env,
  // `pnpm svc …` runs in the workspace root; relative paths are the caller's (pnpm's INIT_CWD).
  cwd: (process.env.npm_lifecycle_event === 'svc' ? process.env.INIT_CWD : undefined) ?? process.cwd(),
  signal: controller.signal,
}).then(
  (code) => {
    process.exitCode = controller.signal.aborted && code !== 0 ? 130 : code;
  },
  (error: unknown) => {
    process.stderr.write(`svc: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
