// One jest run for the whole workspace, in two projects:
//  - unit:        *.test.ts, pure logic, no network;
//  - integration: *.int.test.ts, real PostgreSQL, Redis and service processes on loopback.
//    jest/integration-setup.ts makes sure PostgreSQL and Redis answer (starting embedded ones
//    when nothing does) before any suite runs; each suite makes its own database and key prefix.
const transform = {
  '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' } }],
};
const roots = ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/tools'];
const testPathIgnorePatterns = ['/node_modules/', '/generated/', '/\\.data/'];

/** @type {import('jest').Config} */
module.exports = {
  // jest 30 reads testTimeout only at the top level, not per project: integration suites start
  // real processes, so they get 60 s; unit tests finish long before either limit matters.
  testTimeout: 60_000,
  projects: [
    {
      displayName: 'unit',
      roots,
      transform,
      testEnvironment: 'node',
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: [...testPathIgnorePatterns, '\\.int\\.test\\.ts$'],
    },
    {
      displayName: 'integration',
      roots,
      transform,
      testEnvironment: 'node',
      testMatch: ['**/*.int.test.ts'],
      testPathIgnorePatterns,
      globalSetup: '<rootDir>/jest/integration-setup.ts',
      globalTeardown: '<rootDir>/jest/integration-teardown.ts',
    },
  ],
};
