import { ConfigError, loadEnv } from '@svc/config';
import { RegistryEnv } from './env';

const BUS_ENCRYPTION_KEY = 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY='; // 32 bytes, base64

describe('RegistryEnv', () => {
  test('defaults: health port 8081, local Redis, prefix svc', () => {
    const env = loadEnv(RegistryEnv, {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/svc',
      BUS_ENCRYPTION_KEY,
    });
    expect(env).toMatchObject({
      HEALTH_PORT: 8081,
      REDIS_URL: 'redis://127.0.0.1:6379',
      BUS_PREFIX: 'svc',
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: 10_000,
    });
  });

  test('DATABASE_URL is required and a bad port is named', () => {
    expect(() => loadEnv(RegistryEnv, {})).toThrow(ConfigError);
    expect(() => loadEnv(RegistryEnv, {})).toThrow(/DATABASE_URL: required/);
    expect(() =>
      loadEnv(RegistryEnv, {
        DATABASE_URL: 'postgres://localhost/svc',
        BUS_ENCRYPTION_KEY,
        HEALTH_PORT: 'http',
      }),
    ).toThrow(/HEALTH_PORT/);
  });
});
