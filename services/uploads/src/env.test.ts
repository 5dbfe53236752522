import { loadEnv } from '@svc/config';
import { UploadsEnv } from './env';

const REQUIRED = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/svc',
  ARTIFACT_LINK_SECRET: 'x'.repeat(32),
  BUS_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=', // 32 bytes, base64
};

describe('UploadsEnv', () => {
  it('has the documented defaults', () => {
    const env = loadEnv(UploadsEnv, REQUIRED);
    expect(env).toMatchObject({
      HEALTH_PORT: 8084,
      DATA_PORT: 8094,
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: '.data/objects',
      UPLOAD_SESSION_TTL_MS: 900_000,
      UPLOAD_RETENTION_MS: 86_400_000,
      UPLOAD_PUT_TIMEOUT_MS: 600_000,
      UPLOAD_IDLE_TIMEOUT_MS: 30_000,
      UPLOAD_CLEANUP_INTERVAL_MS: 60_000,
      ARTIFACT_LINK_TTL_MS: 900_000,
      CAPABILITY_CACHE_TTL_MS: 5_000,
      RPC_TIMEOUT_MS: 3_000,
      DATABASE_POOL_MAX: 10,
    });
    expect(env.ARTIFACT_RETENTION_DAYS).toBeUndefined();
  });

  it('reads the settings', () => {
    const env = loadEnv(UploadsEnv, {
      ...REQUIRED,
      DATA_PORT: '0',
      UPLOAD_SESSION_TTL_MS: '1000',
      UPLOAD_RETENTION_MS: '2000',
      UPLOAD_PUT_TIMEOUT_MS: '3000',
      UPLOAD_IDLE_TIMEOUT_MS: '1500',
      UPLOAD_CLEANUP_INTERVAL_MS: '250',
      ARTIFACT_LINK_TTL_MS: '5000',
      ARTIFACT_RETENTION_DAYS: '30',
      DATABASE_POOL_MAX: '4',
    });
    expect(env).toMatchObject({
      DATA_PORT: 0,
      UPLOAD_SESSION_TTL_MS: 1_000,
      UPLOAD_RETENTION_MS: 2_000,
      UPLOAD_PUT_TIMEOUT_MS: 3_000,
      UPLOAD_IDLE_TIMEOUT_MS: 1_500,
      UPLOAD_CLEANUP_INTERVAL_MS: 250,
      ARTIFACT_LINK_TTL_MS: 5_000,
      ARTIFACT_RETENTION_DAYS: 30,
      DATABASE_POOL_MAX: 4,
    });
  });

  it('requires a link secret of 32+ characters and never echoes it', () => {
    expect(() => loadEnv(UploadsEnv, { DATABASE_URL: REQUIRED.DATABASE_URL })).toThrow(
      /ARTIFACT_LINK_SECRET: required/,
    );
    const short = 'short-secret-value';
    let message = '';
    try {
      loadEnv(UploadsEnv, { ...REQUIRED, ARTIFACT_LINK_SECRET: short });
    } catch (err) {
      message = err instanceof Error ? err.message : String(err);
    }
    expect(message).toMatch(/ARTIFACT_LINK_SECRET: must be at least 32 characters/);
    expect(message).not.toContain(short);
  });

  it('names a bad setting', () => {
    expect(() => loadEnv(UploadsEnv, { ...REQUIRED, UPLOAD_SESSION_TTL_MS: 'soon' })).toThrow(
      /UPLOAD_SESSION_TTL_MS/,
    );
    expect(() => loadEnv(UploadsEnv, { ...REQUIRED, ARTIFACT_RETENTION_DAYS: '0' })).toThrow(
      /ARTIFACT_RETENTION_DAYS/,
    );
    expect(() => loadEnv(UploadsEnv, { ...REQUIRED, DATA_PORT: '70000' })).toThrow(/DATA_PORT/);
    expect(() => loadEnv(UploadsEnv, { ...REQUIRED, UPLOAD_IDLE_TIMEOUT_MS: '30s' })).toThrow(
      /UPLOAD_IDLE_TIMEOUT_MS/,
    );
  });

  it('needs the S3 settings when STORAGE_DRIVER=s3', () => {
    expect(() => loadEnv(UploadsEnv, { ...REQUIRED, STORAGE_DRIVER: 's3' })).toThrow(
      /S3_ENDPOINT: required when STORAGE_DRIVER=s3/,
    );
  });
});
