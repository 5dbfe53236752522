import { runChangelog } from './changelog-cli';
import { runCheck } from './check/cli';
import { runGenerate } from './generate/cli';

/** `pnpm contract <command> …`: wiring only; each command resolves to its exit code. */
const USAGE =
  'usage: pnpm contract generate [--check]\n' +
  '       pnpm contract changelog add --summary <text> [--class <additive|behavioral-risk|breaking>] [--elements <id,id,…>]\n' +
  '         (class and elements default to what the checker finds since the newest entry)\n' +
  '       pnpm contract check --baseline <file | git ref> --candidate <file> [--approvals <file>] [--json]\n';

const COMMANDS: Readonly<Record<string, (argv: string[]) => Promise<number>>> = {
  generate: runGenerate,
  changelog: runChangelog,
  check: runCheck,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const run = command === undefined ? undefined : COMMANDS[command];
  if (run === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  return run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`contract: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
