import { ReadinessResponse } from '@svc/contracts';
import { readinessReporter } from './readiness';

describe('readinessReporter', () => {
  it('is ready when every check answers', async () => {
    const report = await readinessReporter('gateway', {
      redis: async () => 'PONG',
      postgres: async () => [],
    })();
    expect(ReadinessResponse.parse(report)).toEqual({
      ok: true,
      service: 'gateway',
      checks: { redis: { ok: true }, postgres: { ok: true } },
    });
  });

  it('fails a check that throws or hangs past the timeout, without leaking a password', async () => {
    const started = Date.now();
    const report = await readinessReporter(
      'gateway',
      {
        redis: () => new Promise(() => {}), // never answers
        postgres: async () => {
          throw new Error('connect ECONNREFUSED postgres://gateway:s3cret@10.0.0.5:5432/svc\nstack…');
        },
      },
      { timeoutMs: 100 },
    )();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(report.ok).toBe(false);
    expect(report.checks.redis).toEqual({ ok: false, error: 'no answer within 100 ms' });
    expect(report.checks.postgres?.error).toBe(
      'connect ECONNREFUSED postgres://gateway:***@10.0.0.5:5432/svc',
    );
  });

  it('reports the backing services without letting one that is down make this process unready', async () => {
    const checks = { redis: async () => 'PONG' };
    const down = { ok: false, instances: 0, error: 'no instance reported ready within 15 s' };
    const report = await readinessReporter('gateway', checks, {
      backingServices: async () => ({ wallet: { ok: true, instances: 1 }, uploads: down }),
    })();
    expect(ReadinessResponse.parse(report)).toEqual({
      ok: true,
      service: 'gateway',
      checks: { redis: { ok: true } },
      services: { wallet: { ok: true, instances: 1 }, uploads: down },
    });
    // A read that fails or hangs (Redis down) leaves `services` out; the checks say why.
    for (const backingServices of [
      async () => Promise.reject(new Error('down')),
      () => new Promise<never>(() => {}),
    ]) {
      const without = await readinessReporter('gateway', checks, { timeoutMs: 50, backingServices })();
      expect(without).toEqual({ ok: true, service: 'gateway', checks: { redis: { ok: true } } });
    }
  });
});
