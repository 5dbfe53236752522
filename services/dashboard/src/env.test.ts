import { loadEnv } from '@svc/config';
import { DashboardEnv } from './env';

const required = {
  DATABASE_URL: 'postgres://dashboard@127.0.0.1:5432/svc',
  BUS_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=', // 32 bytes, base64
};

describe('DashboardEnv', () => {
  it('applies the documented defaults: the gateway on loopback in front, the pages on 8095', () => {
    expect(loadEnv(DashboardEnv, required)).toMatchObject({
      HEALTH_PORT: 8087,
      DATA_PORT: 8095,
      RPC_TIMEOUT_MS: 3_000,
      UPLOADS_URL: 'http://127.0.0.1:8094',
      TRUST_PROXY: 'loopback',
      DASHBOARD_SESSION_MAX_HOURS: 12,
      DASHBOARD_SESSION_IDLE_MINUTES: 60,
    });
    expect(loadEnv(DashboardEnv, required).PUBLIC_BASE_URL).toBeUndefined();
  });

  it('reads TRUST_PROXY as express takes it, and PUBLIC_BASE_URL without its trailing slash', () => {
    const env = (extra: Record<string, string>) => loadEnv(DashboardEnv, { ...required, ...extra });
    expect(env({ TRUST_PROXY: 'off' }).TRUST_PROXY).toBe(false);
    expect(env({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(env({ TRUST_PROXY: '10.0.0.0/8, loopback' }).TRUST_PROXY).toBe('10.0.0.0/8, loopback');
    expect(env({ PUBLIC_BASE_URL: 'https://api.example.com/' }).PUBLIC_BASE_URL).toBe(
      'https://api.example.com',
    );
    expect(() => env({ DASHBOARD_SESSION_IDLE_MINUTES: '0' })).toThrow(/DASHBOARD_SESSION_IDLE_MINUTES/);
  });
});
