import { SpendDiagnosticsResponse, UsageStatementResponse } from '@svc/contracts';
import { type AppHarness, CLIENT_ID, startAppHarness } from './support/app-harness';
import { errorOf, getRun as getWithKey } from './support/run-requests';

/**
 * GET /api/account/usage-statement and /api/account/spend-diagnostics through the app factory and
 * the real wallet's handlers (in process): the strict query (D2), what the wallet is asked, scopes,
 * errors passed through.
 */

/** What the wallet answers for a period whose `from` is not before its `to` (its own words). */
const WALLET_PERIOD_REFUSAL =
  'from (2026-08-02T00:00:00.000Z) must be before to (2026-08-01T00:00:00.000Z): the period is [from, to)';

describe('account statement routes (real wallet handlers)', () => {
  let app: AppHarness;
  const statement = (query = '', apiKey = app.keys.billing) =>
    getWithKey(app, `/api/account/usage-statement${query}`, apiKey);
  const diagnostics = (query = '', apiKey = app.keys.billing) =>
    getWithKey(app, `/api/account/spend-diagnostics${query}`, apiKey);

  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());
  beforeEach(() => app.platform.rpc.clearFaults());
  const usageRequests = () => app.requests('wallet', 'usageStatement');
  const diagnosticsRequests = () => app.requests('wallet', 'spendDiagnostics');

  describe('GET /api/account/usage-statement', () => {
    it('200 UsageStatementResponse for the caller, default limit 100, no-store', async () => {
      const response = await statement();
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = UsageStatementResponse.parse(await response.json());
      expect(body.client_id).toBe(CLIENT_ID);
      expect(usageRequests().at(-1)).toEqual({ client_id: CLIENT_ID, limit: 100 });
    });

    it('passes from, to, slug and limit (a number) to the wallet', async () => {
      const from = '2026-07-01T00:00:00Z';
      const to = '2026-07-15T12:00:00+02:00';
      const response = await statement(
        `?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&slug=pii-redact&limit=2`,
      );
      expect(response.status).toBe(200);
      expect(usageRequests().at(-1)).toEqual({
        client_id: CLIENT_ID,
        from,
        to,
        slug: 'pii-redact',
        limit: 2,
      });
      // The wallet answers the period it used: the same instants, in UTC.
      expect(UsageStatementResponse.parse(await response.json()).period).toEqual({
        start: new Date(from).toISOString(),
        end: new Date(to).toISOString(),
      });
    });

    it.each([
      ['month=11', /month/],
      ['limit=0', /^query\.limit: /],
      ['limit=1001', /^query\.limit: /],
      ['limit=1&limit=2', /^query\.limit: /],
      ['from=yesterday', /^query\.from: /],
      ['slug=Not%20A%20Slug', /^query\.slug: /],
    ])('422 for %s, without asking the wallet', async (query, message) => {
      const calls = usageRequests().length;
      const response = await statement(`?${query}`);
      expect(response.status).toBe(422);
      expect(await errorOf(response)).toMatch(message);
      expect(usageRequests().length).toBe(calls);
    });

    it("passes the wallet's own 422 (a period it refuses) and 503 through", async () => {
      const refused = await statement('?from=2026-08-02T00:00:00Z&to=2026-08-01T00:00:00Z');
      expect(refused.status).toBe(422);
      expect(await errorOf(refused)).toBe(WALLET_PERIOD_REFUSAL);
      app.platform.rpc.down('wallet');
      const down = await statement();
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('2');
      await down.arrayBuffer();
    });

    it('401 without a key, 403 without billing:read', async () => {
      expect((await app.fetch('/api/account/usage-statement')).status).toBe(401);
      const forbidden = await statement('', app.keys.runner);
      expect(forbidden.status).toBe(403);
      expect(forbidden.headers.get('cache-control')).toBe('no-store');
      expect(await errorOf(forbidden)).toBe('insufficient scope: this endpoint requires scope billing:read');
    });
  });

  describe('GET /api/account/spend-diagnostics', () => {
    it('200 SpendDiagnosticsResponse for the caller, no-store', async () => {
      const response = await diagnostics();
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = SpendDiagnosticsResponse.parse(await response.json());
      expect(body.client_id).toBe(CLIENT_ID);
      expect(body.burn_rate.map((window) => window.window)).toEqual(['1h', '24h', '7d']);
      expect(diagnosticsRequests().at(-1)).toEqual({ client_id: CLIENT_ID });
    });

    it('422 for any query parameter (it takes none), without asking the wallet', async () => {
      const calls = diagnosticsRequests().length;
      const response = await diagnostics('?window=1h');
      expect(response.status).toBe(422);
      expect(await errorOf(response)).toMatch(/window/);
      expect(diagnosticsRequests().length).toBe(calls);
    });

    it('401 without a key, 403 without billing:read, 503 when the wallet is down', async () => {
      expect((await app.fetch('/api/account/spend-diagnostics')).status).toBe(401);
      const forbidden = await diagnostics('', app.keys.quoter);
      expect(forbidden.status).toBe(403);
      expect(await errorOf(forbidden)).toBe('insufficient scope: this endpoint requires scope billing:read');
      app.platform.rpc.down('wallet');
      const down = await diagnostics();
      expect(down.status).toBe(503);
      await down.arrayBuffer();
    });
  });
});
