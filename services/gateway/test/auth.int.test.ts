import { BalanceResponse, ErrorResponse, WhoAmIResponse } from '@svc/contracts';
import { type AppHarness, BROKEN_STORE_KEY, CLIENT_ID, startAppHarness } from './support/app-harness';

/** requireAuth through the app factory (a fake key store; the real one is in the integration tests). */

const bearer = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });

async function errorOf(response: Response): Promise<string> {
  return ErrorResponse.parse(await response.json()).error;
}

describe('gateway authentication', () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());

  it('401 with a realm-only challenge when no key is sent', async () => {
    const response = await app.fetch('/api/account/whoami');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="capability-service"');
    expect(await errorOf(response)).toBe('missing API key: send Authorization: Bearer <API_KEY>');
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer without a token', 'Bearer '],
    ['a token with spaces', 'Bearer abc def'],
    ['an unknown key', 'Bearer svc_live_AAAAAAAAAAAA_unknown'],
  ])('401 invalid_token for %s', async (_why, header) => {
    const response = await app.fetch('/api/account/whoami', { headers: { Authorization: header } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="capability-service", error="invalid_token"',
    );
    expect(await errorOf(response)).toMatch(/API key|Authorization/);
  });

  it('403 insufficient_scope naming the missing scope', async () => {
    const response = await app.fetch('/api/account/balance', bearer(app.keys.plain));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="capability-service", error="insufficient_scope", scope="billing:read"',
    );
    expect(await errorOf(response)).toBe('insufficient scope: this endpoint requires scope billing:read');
  });

  it('whoami answers from the verified key, for any scope', async () => {
    const response = await app.fetch('/api/account/whoami', bearer(app.keys.plain));
    expect(response.status).toBe(200);
    const body = WhoAmIResponse.parse(await response.json());
    expect(body).toEqual({
      ok: true,
      client_id: CLIENT_ID,
      client_name: 'acme',
      key_id: expect.any(String),
      scopes: ['capabilities:read'],
    });
    expect(app.keys.plain).toContain(body.key_id);
    expect(app.keys.plain).not.toBe(body.key_id);
  });

  it('balance with billing:read answers the wallet for the caller', async () => {
    const response = await app.fetch('/api/account/balance', bearer(app.keys.billing));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(BalanceResponse.parse(await response.json()).client_id).toBe(CLIENT_ID);
  });

  it('503 (not 401) when the key store itself fails', async () => {
    const response = await app.fetch('/api/account/whoami', bearer(BROKEN_STORE_KEY));
    expect(response.status).toBe(503);
    expect(await errorOf(response)).toBe('authentication is temporarily unavailable');
  });

  it('never writes the API key to the log, even when a client puts it in the URL', async () => {
    const key = app.keys.billing;
    await app.fetch(`/api/account/balance?api_key=${key}`, {
      headers: { Authorization: `Bearer ${key}`, 'X-Request-Id': 'key-log' },
    });
    await app.fetch('/api/account/whoami', { headers: { Authorization: `Bearer ${key}x` } });
    await app.waitForLog((l) => l.request_id === 'key-log');
    const secret = key.slice(key.lastIndexOf('_') + 1);
    expect(app.rawLogs()).not.toContain(key);
    expect(app.rawLogs()).not.toContain(secret);
  });
});
