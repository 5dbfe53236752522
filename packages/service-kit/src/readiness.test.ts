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
      100,
    )();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(report.ok).toBe(false);
    expect(report.checks.redis).toEqual({ ok: false, error: 'no answer within 100 ms' });
    expect(report.checks.postgres?.error).toBe(
      'connect ECONNREFUSED postgres://gateway:***@10.0.0.5:5432/svc',
    );
  });
});
