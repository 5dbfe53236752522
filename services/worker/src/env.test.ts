import { ConfigError, loadEnv } from '@svc/config';
import { WorkerEnv } from './env';

describe('WorkerEnv', () => {
  it('defaults: health port 8086, concurrency 4, runtime node', () => {
    const env = loadEnv(WorkerEnv, {});
    expect(env.HEALTH_PORT).toBe(8086);
    expect(env.WORKER_CONCURRENCY).toBe(4);
    expect(env.WORKER_RUNTIMES).toEqual(['node']);
  });

  it('accepts HEALTH_PORT=0 (any free port, several workers on one host)', () => {
    expect(loadEnv(WorkerEnv, { HEALTH_PORT: '0' }).HEALTH_PORT).toBe(0);
  });

  it('parses WORKER_RUNTIMES as a comma list without blanks or duplicates', () => {
    expect(loadEnv(WorkerEnv, { WORKER_RUNTIMES: ' node, python ,,node' }).WORKER_RUNTIMES).toEqual([
      'node',
      'python',
    ]);
  });

  it('names every bad variable', () => {
    const bad = { HEALTH_PORT: '70000', WORKER_CONCURRENCY: '0', WORKER_RUNTIMES: 'node,py:thon' };
    let error: unknown;
    try {
      loadEnv(WorkerEnv, bad);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = error instanceof ConfigError ? error.problems.map((p) => p.variable).sort() : [];
    expect(variables).toEqual(['HEALTH_PORT', 'WORKER_CONCURRENCY', 'WORKER_RUNTIMES']);
  });
});
