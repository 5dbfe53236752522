import { HANDLED_SIGNALS, Interrupts } from './interrupts';
import { processIo } from './output';
import { runCli } from './program';

// `svc …` (tools/cli/bin/svc.cjs, or `pnpm svc …` from the workspace root). Wiring only: runCli
// resolves to the exit code (docs/decisions.md SC2). Signals: interrupts.ts (SC12): Ctrl-C aborts
// the command, and a run being waited for is cancelled on the server before svc exits 130, even
// when pnpm, which ran svc, has already gone (it sends SIGTERM as it leaves; stdout and stderr may
// be closed: processIo ignores EPIPE).
const interrupts = new Interrupts();
const io = processIo();
for (const signal of HANDLED_SIGNALS) {
  process.on(signal, () => {
    const action = interrupts.receive(signal);
    if (action.kind === 'exit') process.exit(action.code);
    io.stderr(`\nsvc: ${action.note}\n`);
  });
}

runCli(process.argv.slice(2), {
  io,
  env: process.env,
  // `pnpm svc …` runs in the workspace root; relative paths are the caller's (pnpm's INIT_CWD).
  cwd: (process.env.npm_lifecycle_event === 'svc' ? process.env.INIT_CWD : undefined) ?? process.cwd(),
  signal: interrupts.controller.signal,
  guard: (body) => interrupts.guard(body),
}).then(
  (code) => {
    process.exitCode = interrupts.exitCode !== undefined && code !== 0 ? interrupts.exitCode : code;
  },
  (error: unknown) => {
    io.stderr(`svc: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
