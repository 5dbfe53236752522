import path from 'node:path';
import { describeCycle, findPackageCycles } from './package-cycles';
import { testScriptProblems } from './test-scripts';
import { listWorkspacePackages } from './workspace-packages';

/** The workspace this tool belongs to (tools/workspace-check/src → the root), whatever the current directory. */
const WORKSPACE_ROOT = path.join(__dirname, '..', '..', '..');

export interface CheckOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/**
 * `pnpm lint:workspace [root]`: checks the workspace at `root` (default: the one this file is in) and
 * resolves to the exit code, 0 when it passes, 1 when a check fails:
 *  - no cycle among the packages through dependencies, devDependencies, optional or peer dependencies
 *    (`pnpm install` only warns about one, and madge sees imports, not package.json: a test-only
 *    devDependency can close a cycle no import shows);
 *  - every package with tests has the `test` script that runs them (`pnpm --filter <name> test`).
 */
export async function runWorkspaceCheck(argv: readonly string[], out: CheckOutput): Promise<number> {
  const root = path.resolve(argv[0] ?? WORKSPACE_ROOT);
  const packages = await listWorkspacePackages(root);
  const cycles = findPackageCycles(packages);
  const scriptProblems = testScriptProblems(root, packages);
  for (const cycle of cycles) {
    out.stderr(`cyclic workspace dependencies: ${describeCycle(cycle)}\n`);
  }
  if (cycles.length > 0) {
    out.stderr(
      'A package may not depend on one that depends back on it, devDependencies included: move the dependency that closes the cycle.\n',
    );
  }
  for (const problem of scriptProblems) {
    out.stderr(`${problem}\n`);
  }
  if (cycles.length > 0 || scriptProblems.length > 0) return 1;
  out.stdout(
    `workspace: ${packages.length} packages, no dependency cycle, every package with tests has its test script\n`,
  );
  return 0;
}
