// One jest run for the whole workspace, in two projects:
//  - unit:        *.test.ts, pure logic, no network;
//  - integration: *.int.test.ts, real PostgreSQL, Redis and service processes on loopback.
//    jest/integration-setup.ts makes sure PostgreSQL and Redis answer (starting embedded ones
//    when nothing does) before any suite runs; each suite makes its own database and key prefix.
// Imports of packages (`@svc/*` and every other bare specifier) load when a test first uses what they
// bind, not when the suite starts (swc's CommonJS `lazy`, as babel's): a suite that takes one helper
// from the test kit no longer loads Prisma, BullMQ, express and the fake providers behind its other
// exports. Relative imports and bare side-effect imports (`import 'x'`) stay eager, as written.
// Measured on this 2-core machine: a suite importing @svc/testkit 2.1 -> 1.1 CPU-s (0.8 for an empty
// suite); the unit tier 121.7 -> 106.2 CPU-s; the integration tier's jest workers 449 -> 362 CPU-s.
const swcModule = { type: 'commonjs', lazy: true };
const transform = {
  // The dashboard's views are .tsx (preact JSX, automatic runtime, as tsconfig.base.json sets it).
  '^.+\\.tsx$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic', importSource: 'preact' } },
        target: 'es2023',
      },
      module: swcModule,
    },
  ],
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: swcModule },
  ],
};
// Each project names its rootDir: a project's rootDir is otherwise the folder of the config file that
// lists it, and jest/unit.config.js and jest/integration.config.js (`pnpm test:unit`, `pnpm test:integration`)
// list these projects from jest/.
const rootDir = __dirname;
const roots = ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/tools'];
const testPathIgnorePatterns = ['/node_modules/', '/generated/', '/\\.data/'];
// The SDK's build output (packages/sdk/dist) carries a package.json named @svc/sdk too: jest's module map
// must not see two packages of one name (pnpm --filter @svc/sdk build, or the packing test mid-run).
const modulePathIgnorePatterns = ['<rootDir>/packages/sdk/dist/'];

/** @type {import('jest').Config} */
module.exports = {
  // jest 30 reads testTimeout only at the top level, not per project: integration suites start
  // real processes, so they get 60 s; unit tests finish long before either limit matters.
  testTimeout: 60_000,
  // Two workers, on purpose. jest's default is cores - 1, one worker on CI's two cores, but the
  // integration suites mostly wait (on spawned services, PostgreSQL, Redis, timers), so two of them
  // share two cores well. Measured on a 2-core machine shared with other jobs (load 11-26, so noisy),
  // subset = services/wallet, services/orchestrator, packages/db, packages/auth, tools/admin
  // (26-27 suites, 176-181 tests), wall time in s, two runs each:
  //   per-suite migrations:  1 worker 307, 281;  2 workers 246, 141
  //   template databases:    1 worker 240, 259;  2 workers 231, 172;  3 workers 163 (once)
  // A third worker bought nothing measurable and adds contention (summed suite time 476 s vs 339-457 s);
  // tools/admin's CLI suite (60-160 s, one CLI process after another) is the subset's long pole.
  // Override per run with `--maxWorkers=N`. `pnpm test` runs the integration tier with three
  // (jest/integration.config.js, measured there on the whole tier).
  maxWorkers: 2,
  // jest's default reporter, then the slowest suites with their seconds (jest/slowest-suites-reporter.js).
  reporters: ['default', ['<rootDir>/jest/slowest-suites-reporter.js', { count: 10 }]],
  projects: [
    {
      displayName: 'unit',
      rootDir,
      roots,
      transform,
      modulePathIgnorePatterns,
      testEnvironment: 'node',
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: [...testPathIgnorePatterns, '\\.int\\.test\\.ts$'],
    },
    {
      displayName: 'integration',
      rootDir,
      roots,
      transform,
      modulePathIgnorePatterns,
      testEnvironment: 'node',
      testMatch: ['**/*.int.test.ts'],
      testPathIgnorePatterns,
      globalSetup: '<rootDir>/jest/integration-setup.ts',
      globalTeardown: '<rootDir>/jest/integration-teardown.ts',
    },
  ],
};
