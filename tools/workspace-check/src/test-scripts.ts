import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { WorkspacePackage } from './workspace-packages';

/** jest's testMatch in jest.config.js: `*.test.ts` (unit) and `*.int.test.ts` (integration). */
const TEST_FILE = /\.test\.tsx?$/;
/** Folders that hold no test of the package's own: installed packages, build output, generated code, data. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'generated']);

/** Every test file below `dir`, as absolute paths (symbolic links, such as node_modules' entries, are not followed). */
export function findTestFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith('.')) found.push(...findTestFiles(file));
    } else if (entry.isFile() && TEST_FILE.test(entry.name)) {
      found.push(file);
    }
  }
  return found;
}

/**
 * The `test` script of the package in `dir`: the workspace's jest config (both projects, its transforms
 * and its integration setup), with the test roots narrowed to the package's folder. `--roots`, not a path
 * pattern: jest ORs path patterns, so `pnpm --filter @svc/log test scrub` would also run every other
 * package's scrub tests, where a root keeps the extra pattern inside the package.
 * The single quotes keep `<rootDir>` from the shell (a redirection otherwise).
 */
export function expectedTestScript(root: string, dir: string): string {
  const config = path.relative(dir, path.join(root, 'jest.config.js'));
  return `jest --config ${config} --roots '<rootDir>/${path.relative(root, dir)}'`;
}

/**
 * One line per workspace package that has tests but not the `test` script that runs exactly them
 * (`pnpm --filter <name> test`). The root package is left out: its `test` runs every package's tests.
 */
export function testScriptProblems(root: string, packages: readonly WorkspacePackage[]): string[] {
  const problems: string[] = [];
  for (const pkg of packages) {
    if (path.resolve(pkg.dir) === path.resolve(root) || findTestFiles(pkg.dir).length === 0) continue;
    const expected = expectedTestScript(root, pkg.dir);
    const actual = pkg.manifest.scripts?.test;
    if (actual === expected) continue;
    const file = path.relative(root, path.join(pkg.dir, 'package.json'));
    problems.push(
      actual === undefined
        ? `${pkg.name} has tests but no "test" script: add "test": ${JSON.stringify(expected)} to ${file}`
        : `${pkg.name}'s "test" script is ${JSON.stringify(actual)}; to run its own tests it must be ${JSON.stringify(expected)} (${file})`,
    );
  }
  return problems;
}
