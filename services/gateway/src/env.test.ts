import { ConfigError, loadEnv } from '@svc/config';
import { GatewayEnv } from './env';

const required = {
  DATABASE_URL: 'postgres://gateway@127.0.0.1:5432/svc',
  BUS_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=', // 32 bytes, base64
};

describe('GatewayEnv', () => {
  it('applies the documented defaults', () => {
    expect(loadEnv(GatewayEnv, required)).toMatchObject({
      PORT: 8080,
      HEALTH_PORT: 9080,
      RPC_TIMEOUT_MS: 3_000,
      CATALOG_CACHE_TTL_MS: 30_000,
      JSON_BODY_LIMIT: '1mb',
      BODY_GRACE_MS: 20_000,
      BODY_MIN_BYTES_PER_SECOND: 500,
      TRUST_PROXY: false,
      BUS_PREFIX: 'svc',
      REDIS_URL: 'redis://127.0.0.1:6379',
      CRT_RUN_WAIT_MS: 55_000,
      RUN_POLL_INTERVAL_MS: 1_000,
      UPLOADS_URL: 'http://127.0.0.1:8094',
      DASHBOARD_URL: 'http://127.0.0.1:8095',
    });
    expect(loadEnv(GatewayEnv, required).PUBLIC_BASE_URL).toBeUndefined();
  });

  it('reads the minimum body pace (0 bytes/s: the grace is the whole allowance), and refuses what is not one', () => {
    const env = loadEnv(GatewayEnv, { ...required, BODY_GRACE_MS: '5000', BODY_MIN_BYTES_PER_SECOND: '0' });
    expect(env).toMatchObject({ BODY_GRACE_MS: 5_000, BODY_MIN_BYTES_PER_SECOND: 0 });
    expect(() => loadEnv(GatewayEnv, { ...required, BODY_GRACE_MS: '0' })).toThrow(/BODY_GRACE_MS/);
    expect(() => loadEnv(GatewayEnv, { ...required, BODY_MIN_BYTES_PER_SECOND: '1.5' })).toThrow(
      /BODY_MIN_BYTES_PER_SECOND/,
    );
  });

  it('reads PUBLIC_BASE_URL without its trailing slash, and refuses what cannot be a base', () => {
    const read = (value: string) =>
      loadEnv(GatewayEnv, { ...required, PUBLIC_BASE_URL: value }).PUBLIC_BASE_URL;
    expect(read('https://api.example.com/')).toBe('https://api.example.com');
    expect(read('https://example.com/svc//')).toBe('https://example.com/svc');
    for (const bad of [
      'api.example.com',
      'ftp://example.com',
      'https://example.com/?x=1',
      'https://u:p@example.com',
    ]) {
      expect(() => read(bad)).toThrow(/PUBLIC_BASE_URL/);
    }
  });

  it('reads the MCP settings: comma lists (unset or empty: the defaults apply) and the run wait', () => {
    const env = loadEnv(GatewayEnv, {
      ...required,
      MCP_ALLOWED_HOSTS: ' API.example.com , ,localhost:8080',
      MCP_ALLOWED_ORIGINS: '',
      MCP_RUN_WAIT_MS: '5000',
    });
    expect(env.MCP_ALLOWED_HOSTS).toEqual(['api.example.com', 'localhost:8080']);
    expect(env.MCP_ALLOWED_ORIGINS).toBeUndefined();
    expect(env.MCP_RUN_WAIT_MS).toBe(5_000);
    expect(loadEnv(GatewayEnv, required)).toMatchObject({ MCP_RUN_WAIT_MS: 25_000 });
    expect(loadEnv(GatewayEnv, required).MCP_ALLOWED_HOSTS).toBeUndefined();
  });

  it('keeps MCP_ALLOWED_ORIGINS entries as the Origin a browser sends, and refuses what cannot match one', () => {
    const origins = (value: string) =>
      loadEnv(GatewayEnv, { ...required, MCP_ALLOWED_ORIGINS: value }).MCP_ALLOWED_ORIGINS;
    // A trailing slash or a default port never appears in an Origin header: kept, they would refuse all.
    expect(origins('https://App.example.com/, https://b.example.com:443,http://localhost:3000')).toEqual([
      'https://app.example.com',
      'https://b.example.com',
      'http://localhost:3000',
    ]);
    for (const bad of ['app.example.com', 'https://app.example.com/ui', 'ftp://x.example', 'null']) {
      expect(() => origins(bad)).toThrow(/MCP_ALLOWED_ORIGINS/);
    }
  });

  it('refuses MCP_ALLOWED_HOSTS entries that are not `name` or `name:port`', () => {
    const hosts = (value: string) =>
      loadEnv(GatewayEnv, { ...required, MCP_ALLOWED_HOSTS: value }).MCP_ALLOWED_HOSTS;
    expect(hosts('[::1]:8080, gw.internal')).toEqual(['[::1]:8080', 'gw.internal']);
    for (const bad of ['https://api.example.com', 'api.example.com/mcp', '::1', 'api.example.com:']) {
      expect(() => hosts(bad)).toThrow(/MCP_ALLOWED_HOSTS/);
    }
  });

  it('reads UPLOADS_URL (http only: the internal port is never TLS-terminated by us)', () => {
    expect(loadEnv(GatewayEnv, { ...required, UPLOADS_URL: 'http://uploads:9000' }).UPLOADS_URL).toBe(
      'http://uploads:9000',
    );
    expect(() => loadEnv(GatewayEnv, { ...required, UPLOADS_URL: 'uploads:9000' })).toThrow(/UPLOADS_URL/);
  });

  it.each([
    ['true', true],
    ['off', false],
    ['2', 2],
    ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadEnv(GatewayEnv, { ...required, TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it('accepts body limits express understands and rejects others', () => {
    expect(loadEnv(GatewayEnv, { ...required, JSON_BODY_LIMIT: '512KB' }).JSON_BODY_LIMIT).toBe('512kb');
    expect(() => loadEnv(GatewayEnv, { ...required, JSON_BODY_LIMIT: 'lots' })).toThrow(/JSON_BODY_LIMIT/);
    expect(() => loadEnv(GatewayEnv, { ...required, JSON_BODY_LIMIT: '2gb' })).toThrow(/JSON_BODY_LIMIT/);
    expect(() => loadEnv(GatewayEnv, { ...required, JSON_BODY_LIMIT: '101mb' })).toThrow(/at most 100mb/);
  });

  it('reads the run wait and poll interval, and rejects zero', () => {
    const env = loadEnv(GatewayEnv, { ...required, CRT_RUN_WAIT_MS: '5000', RUN_POLL_INTERVAL_MS: '250' });
    expect(env).toMatchObject({ CRT_RUN_WAIT_MS: 5_000, RUN_POLL_INTERVAL_MS: 250 });
    expect(() => loadEnv(GatewayEnv, { ...required, RUN_POLL_INTERVAL_MS: '0' })).toThrow(
      /RUN_POLL_INTERVAL_MS/,
    );
    expect(() => loadEnv(GatewayEnv, { ...required, CRT_RUN_WAIT_MS: 'soon' })).toThrow(/CRT_RUN_WAIT_MS/);
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadEnv(GatewayEnv, { PORT: 'http', CATALOG_CACHE_TTL_MS: '-5' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = error instanceof ConfigError ? error.problems.map((p) => p.variable) : [];
    expect(variables).toEqual(expect.arrayContaining(['DATABASE_URL', 'PORT', 'CATALOG_CACHE_TTL_MS']));
  });
});
