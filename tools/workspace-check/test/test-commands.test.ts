import { execFile } from 'node:child_process';
import path from 'node:path';
import { findTestFiles } from '../src/test-scripts';

/**
 * The README's test commands, run for real with `--listTests` (jest lists the suites it would run and
 * stops: no suite runs, no integration setup starts): a path narrows `pnpm test`, `pnpm test:unit` and
 * `pnpm test:integration` to the suites under it, and `pnpm --filter <package> test` runs that
 * package's own suites. Before issue 23 item 7 `pnpm test:unit packages/sdk` listed all 210 unit
 * suites (`--selectProjects` took the path for a project name) and `pnpm --filter @svc/sdk test` ran
 * nothing, with exit code 0.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');
/** A package with both unit and integration suites. */
const PACKAGE = 'packages/storage';
const PACKAGE_NAME = '@svc/storage';
/** jest's roots in jest.config.js. */
const JEST_ROOTS = ['packages', 'services', 'tools'];

const isIntegration = (file: string) => file.endsWith('.int.test.ts');

/** Runs `pnpm args…` in the workspace root; the suites it lists (absolute paths, one a line), sorted. */
function listedSuites(args: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile('pnpm', args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) {
        reject(new Error(`pnpm ${args.join(' ')} failed: ${err.message}\n${stderr}`));
        return;
      }
      const suites = stdout
        .split('\n')
        .map((line) => /(\/\S+\.test\.tsx?)$/.exec(line.trim())?.[1])
        .filter((file): file is string => file !== undefined);
      resolve(suites.sort());
    });
  });
}

const packageSuites = findTestFiles(path.join(ROOT, PACKAGE)).sort();
const packageUnitSuites = packageSuites.filter((file) => !isIntegration(file));
const packageIntegrationSuites = packageSuites.filter(isIntegration);
/** The file name of one unit suite of the package: a pattern that narrows inside it. */
const PATTERN = path.basename(packageUnitSuites[0] ?? 'none');

/**
 * Every command the tests run, started together when the file loads: each is a pnpm and one or two
 * jest processes that mostly start up and crawl the workspace, so side by side they take about as
 * long as the slowest of them instead of the sum (8 s one after the other). Each test awaits its own.
 */
const COMMANDS = {
  unit: ['test:unit', PACKAGE, '--listTests'],
  integration: ['test:integration', PACKAGE, '--listTests'],
  both: ['test', PACKAGE, '--listTests'],
  filter: ['--filter', PACKAGE_NAME, 'test', '--listTests'],
  filterPattern: ['--filter', PACKAGE_NAME, 'test', '--listTests', PATTERN],
  everything: ['test', '--listTests'],
} as const;
const listings = Object.fromEntries(
  Object.entries(COMMANDS).map(([key, args]) => {
    const listing = listedSuites(args);
    // Awaited by its test; this only keeps a failure from being reported as unhandled before that.
    listing.catch(() => undefined);
    return [key, listing];
  }),
) as Record<keyof typeof COMMANDS, Promise<string[]>>;

describe('running one package’s tests', () => {
  it('has both kinds of suite in the package it tries', () => {
    expect(packageUnitSuites.length).toBeGreaterThan(0);
    expect(packageIntegrationSuites.length).toBeGreaterThan(0);
  });

  it('pnpm test:unit <path> lists only the unit suites under the path', async () => {
    expect(await listings.unit).toEqual(packageUnitSuites);
  });

  it('pnpm test:integration <path> lists only the integration suites under the path', async () => {
    expect(await listings.integration).toEqual(packageIntegrationSuites);
  });

  it('pnpm test <path> lists both kinds under the path', async () => {
    expect(await listings.both).toEqual(packageSuites);
  });

  it('pnpm --filter <package> test lists the package’s own suites, narrowed further by a pattern', async () => {
    expect(await listings.filter).toEqual(packageSuites);
    // A pattern after the package's own root narrows inside the package instead of adding other packages' suites.
    expect(await listings.filterPattern).toEqual([packageUnitSuites[0]]);
  });

  it('pnpm test without a path still lists every suite of the workspace, unit and integration', async () => {
    const everySuite = JEST_ROOTS.flatMap((dir) => findTestFiles(path.join(ROOT, dir))).sort();
    const listed = await listings.everything;
    expect(listed).toEqual(everySuite);
    expect(listed.some(isIntegration)).toBe(true);
  });
});
