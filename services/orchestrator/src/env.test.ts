import { loadEnv } from '@svc/config';
import { OrchestratorEnv } from './env';

const REQUIRED = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/svc',
  BUS_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=', // 32 bytes, base64
};

describe('OrchestratorEnv', () => {
  it('defaults the dispatcher to every second', () => {
    const env = loadEnv(OrchestratorEnv, REQUIRED);
    expect(env.RUN_DISPATCH_INTERVAL_MS).toBe(1_000);
    expect(env.HEALTH_PORT).toBe(8083);
    expect(env.CAPABILITY_CACHE_TTL_MS).toBe(5_000);
    expect(env.ORPHAN_HOLD_AFTER_MS).toBe(600_000);
  });

  it('reads the settings and names a bad one', () => {
    const env = loadEnv(OrchestratorEnv, {
      ...REQUIRED,
      RUN_DISPATCH_INTERVAL_MS: '250',
      CAPABILITY_CACHE_TTL_MS: '1',
      ORPHAN_HOLD_AFTER_MS: '1000',
    });
    expect(env).toMatchObject({
      RUN_DISPATCH_INTERVAL_MS: 250,
      CAPABILITY_CACHE_TTL_MS: 1,
      ORPHAN_HOLD_AFTER_MS: 1_000,
    });
    expect(() => loadEnv(OrchestratorEnv, { ...REQUIRED, RUN_DISPATCH_INTERVAL_MS: 'soon' })).toThrow(
      /RUN_DISPATCH_INTERVAL_MS/,
    );
  });
});
