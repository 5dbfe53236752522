import { pollUntil } from '@svc/testkit';
import { signIn } from './form-browser';
import { CLIENT_ID } from './memory-stores';
import { type DashboardHarness, startDashboardHarness, writeCapture } from './support';

/** The text of the element with `data-testid=<id>` (its first text run). */
function testIdText(html: string, id: string): string | undefined {
  return new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
}

/**
 * The overview, keys and usage pages through the app factory over the real wallet, orchestrator and
 * the gateway's `keys` handlers (support.ts).
 */
describe('dashboard pages (server side)', () => {
  let harness: DashboardHarness;
  beforeAll(async () => {
    harness = await startDashboardHarness();
    // What the wallet has charged acme: 0.004 USD today (the chart's last day) and, for the usage
    // statement, 0.004 USD in August 2026, both for pii-redact.
    await writeCapture(harness.platform, CLIENT_ID, 'pii-redact', '0.004', new Date());
    await writeCapture(
      harness.platform,
      CLIENT_ID,
      'pii-redact',
      '0.004',
      new Date('2026-08-12T09:30:00.000Z'),
    );
  });
  afterAll(async () => harness.close());

  it('overview: money, the 30-day chart, runs by state and the projection', async () => {
    const owner = await signIn(harness, 'owner@acme.test');
    const res = await owner.get('/dashboard');
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const id of [
      'balance',
      'held',
      'spent-month',
      'spend-cap',
      'spend-chart',
      'runs-by-state',
      'projection',
    ]) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    expect(harness.requests('wallet', 'dailySpend').at(-1)).toEqual({ client_id: CLIENT_ID, days: 30 });
    // One bar per day, the last one (0.004 USD) the only one with height.
    const bars = [...html.matchAll(/<rect class="bar"[^>]*height="([\d.]+)"[^>]*data-usd="([^"]+)"/g)];
    expect(bars).toHaveLength(30);
    expect(bars.slice(0, 29).every((bar) => Number(bar[1]) === 0)).toBe(true);
    expect(Number(bars[29]?.[1])).toBeGreaterThan(0);
    expect(testIdText(html, 'spend-cap')).toBe('No cap');
  });

  it('keys: create shows the key once, lists it, revokes it after confirmation and publishes apikey.revoked', async () => {
    const dev = await signIn(harness, 'dev@acme.test');
    const form = await (await dev.get('/dashboard/keys')).text();
    // Each offered scope is explained; a developer is not offered the vault's.
    expect(form).toContain('value="capabilities:run"');
    expect(form).toContain('Start runs, read their status and cancel them');
    expect(form).not.toContain('value="vault:read"');

    const created = await dev.post('/dashboard/keys', {
      name: 'ci deploy',
      scopes: ['capabilities:run', 'billing:read'],
      expires_at: '2027-01-31',
    });
    expect(created.status).toBe(303);
    const shown = testIdText(
      await (await dev.get(created.headers.get('location') ?? '')).text(),
      'new-api-key',
    );
    expect(shown).toMatch(/^svc_live_[a-z0-9]{12}_/);
    const key = (await harness.keys()).find((k) => k.label === 'ci deploy');
    expect(key?.scopes).toEqual(['capabilities:run', 'billing:read']);
    expect(key?.expiresAt?.toISOString()).toBe('2027-01-31T00:00:00.000Z');

    const list = await (await dev.get('/dashboard/keys')).text();
    expect(list).toContain(`data-testid="key-row" data-key-id="${key?.keyId}"`);
    expect(list).not.toContain(shown ?? 'no key');

    const confirm = await dev.get(`/dashboard/keys/${key?.keyId}/revoke`);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('data-testid="revoke-confirm"');
    expect(harness.platform.revokedKeyIds).not.toContain(key?.keyId);
    const revoked = await dev.post(`/dashboard/keys/${key?.keyId}/revoke`);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/dashboard/keys');
    // The event is published before the answer; it reaches the bus's subscribers just after.
    await pollUntil(() => harness.platform.revokedKeyIds.includes(key?.keyId ?? ''), {
      what: 'apikey.revoked for the revoked key',
    });
    expect(harness.platform.revokedKeyIds).toContain(key?.keyId);
    const after = await (await dev.get('/dashboard/keys')).text();
    expect(after).not.toContain(`data-key-id="${key?.keyId}"`);
    // Revoking again: the key is gone, 404.
    expect((await dev.post(`/dashboard/keys/${key?.keyId}/revoke`)).status).toBe(404);
  });

  it('keys: a bad form comes back with its errors and creates nothing', async () => {
    const owner = await signIn(harness, 'owner@acme.test');
    const before = (await harness.keys()).length;
    const res = await owner.post('/dashboard/keys', {
      name: ' ',
      scopes: 'admin:all',
      expires_at: '2020-01-01',
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('Give the key a name');
    expect(html).toContain('Not a scope you can give: admin:all.');
    expect(html).toContain('The expiry must be tomorrow or later.');
    expect((await harness.keys()).length).toBe(before);
  });

  it('usage: the period asked for, per capability, and the same as CSV', async () => {
    const viewer = await signIn(harness, 'viewer@acme.test');
    const res = await viewer.get('/dashboard/usage?from=2026-08-01&to=2026-08-31');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="usage-table"');
    expect(html).toContain('data-slug="pii-redact"');
    expect(harness.requests('wallet', 'usageStatement').at(-1)).toMatchObject({
      client_id: CLIENT_ID,
      from: '2026-08-01T00:00:00.000Z',
      to: '2026-09-01T00:00:00.000Z',
    });
    const link = /href="([^"]+)" data-testid="usage-csv"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
    expect(link).toBe('/dashboard/usage.csv?from=2026-08-01&to=2026-08-31');
    const csv = await viewer.get(link ?? '');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain('usage-2026-08-01-to-2026-08-31.csv');
    expect(await csv.text()).toBe(
      'period_from,period_to,capability,charged_runs,spent_usd\n2026-08-01,2026-08-31,pii-redact,1,0.004\n',
    );
  });

  it('usage: a period that ends before it starts is refused in words, the month shown instead', async () => {
    const viewer = await signIn(harness, 'viewer@acme.test');
    const res = await viewer.get('/dashboard/usage?from=2026-08-10&to=2026-08-01');
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('The period must end on or after its first day.');
    expect((await viewer.get('/dashboard/usage.csv?from=nope&to=2026-08-01')).status).toBe(422);
  });

  it('a service that does not answer gives the 503 page, not a stack', async () => {
    const owner = await signIn(harness, 'owner@acme.test');
    harness.platform.rpc.down('wallet');
    try {
      const res = await owner.get('/dashboard');
      expect(res.status).toBe(503);
      const html = await res.text();
      expect(html).toContain('data-status="503"');
      expect(html).toContain('A service did not answer in time.');
    } finally {
      harness.platform.rpc.up('wallet');
    }
  });
});
