import { spawnSync } from 'node:child_process';
import path from 'node:path';

const TSX = path.resolve(__dirname, '../../../node_modules/.bin/tsx');
const PACKAGE = path.resolve(__dirname, '..');

const SCRIPT = [
  "import { z } from 'zod';",
  "import { databaseEnv, loadEnvOrExit, port } from './src/index';",
  'const env = loadEnvOrExit(z.object({ ...databaseEnv, PORT: port(8080) }));',
  'process.stdout.write(JSON.stringify(env));',
].join('\n');

function run(env: Record<string, string>) {
  // Only PATH from the parent, so nothing in the test runner's environment leaks into the result.
  return spawnSync(TSX, ['-e', SCRIPT], {
    cwd: PACKAGE,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
  });
}

describe('loadEnvOrExit', () => {
  test('returns the parsed environment when it is valid', () => {
    const result = run({ DATABASE_URL: 'postgres://localhost/db', PORT: '9000' });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      DATABASE_URL: 'postgres://localhost/db',
      DATABASE_POOL_MAX: 10,
      PORT: 9000,
    });
  });

  test('prints the message to stderr and exits 1 when it is not', () => {
    const result = run({ PORT: 'abc' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe(
      'Invalid configuration: DATABASE_URL: required; PORT: expected an integer between 1 and 65535, got "abc"',
    );
  });
});
