import { pollUntil } from '@svc/testkit';
import { SHOWN_ALREADY } from '../src/pages/keys';
import { setCookie, signIn } from './form-browser';
import { CLIENT_ID } from './memory-stores';
import { type DashboardHarness, startDashboardHarness } from './support';

/**
 * Issue 23 item 4: every state-changing form answers with a redirect (POST-redirect-GET), so a reload
 * or the back button shows a page and repeats nothing. A new API key is still shown, exactly once: it
 * waits for the redirect's GET in a one-time note beside the session, never in the URL, a cookie or a
 * log line.
 */

function newKeyOf(html: string): string | undefined {
  return /data-testid="new-api-key">([^<]+)</.exec(html)?.[1];
}

describe('form actions redirect; the new key is shown once', () => {
  let harness: DashboardHarness;
  beforeAll(async () => {
    harness = await startDashboardHarness();
  });
  afterAll(async () => harness.close());

  it('creating a key redirects to a page that shows it once; a reload creates nothing and shows nothing', async () => {
    const owner = await signIn(harness, 'owner@acme.test');
    const before = (await harness.keys()).length;
    const created = await owner.post('/dashboard/keys', { name: 'reloaded', scopes: 'billing:read' });
    expect(created.status).toBe(303);
    const location = created.headers.get('location') ?? '';
    expect(location).toMatch(/^\/dashboard\/keys\/created\/[A-Za-z0-9_-]{22}$/);
    expect((await harness.keys()).length).toBe(before + 1);

    const page = await owner.get(location);
    expect(page.status).toBe(200);
    const apiKey = newKeyOf(await page.text()) ?? '';
    expect(apiKey).toMatch(/^svc_live_[a-z0-9]{12}_/);
    // Not in the redirect, its cookies, the note's storage or the request log.
    expect(location).not.toContain(apiKey);
    expect(created.headers.getSetCookie().join('\n')).not.toContain(apiKey);
    expect(page.headers.getSetCookie().join('\n')).not.toContain(apiKey);
    expect(harness.rawLogs()).not.toContain(apiKey);
    expect(harness.dashboard.noteStorage.values.size).toBe(0);

    // The reload: the same GET again. Sent on to the list, which says why; still one key more.
    const reload = await owner.get(location);
    expect(reload.status).toBe(303);
    expect(reload.headers.get('location')).toBe('/dashboard/keys');
    expect(setCookie(reload, 'svc_dashboard_flash')).toBe(SHOWN_ALREADY);
    expect(await reload.text()).not.toContain(apiKey);
    expect(await (await owner.get('/dashboard/keys')).text()).not.toContain(apiKey);
    expect((await harness.keys()).length).toBe(before + 1);
  });

  it('another session, even of the same person, cannot read the note; its own session still can', async () => {
    const owner = await signIn(harness, 'owner@acme.test');
    const elsewhere = await signIn(harness, 'owner@acme.test');
    const created = await owner.post('/dashboard/keys', { name: 'elsewhere', scopes: 'billing:read' });
    const location = created.headers.get('location') ?? '';
    const stolen = await elsewhere.get(location);
    expect(stolen.status).toBe(303);
    expect(newKeyOf(await stolen.text())).toBeUndefined();
    expect(newKeyOf(await (await owner.get(location)).text())).toMatch(/^svc_live_/);
  });

  it('revokes the new key and answers 503 when the note cannot be kept', async () => {
    const owner = await signIn(harness, 'owner@acme.test');
    harness.dashboard.noteStorage.down = true;
    try {
      const res = await owner.post('/dashboard/keys', { name: 'unshown', scopes: 'billing:read' });
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('The key could not be shown, so it was revoked at once.');
    } finally {
      harness.dashboard.noteStorage.down = false;
    }
    const key = (await harness.keys()).find((k) => k.label === 'unshown');
    expect(key?.revokedAt).not.toBeNull();
    await pollUntil(() => harness.platform.revokedKeyIds.includes(key?.keyId ?? ''), {
      what: 'apikey.revoked for the unshown key',
    });
    expect(harness.platform.revokedKeyIds).toContain(key?.keyId);
  });

  it('filling a document redirects to its page: a reload fills nothing again', async () => {
    const owner = await signIn(harness, 'owner@acme.test');
    await harness.platform.client('vault').saveField({
      client_id: CLIENT_ID,
      request_id: 'form-actions',
      field: { name: 'email', type: 'email', value: 'jana@example.com' },
    });
    const form = new FormData();
    form.append('_csrf', owner.csrf);
    form.append('fields', 'email');
    form.append('template', new Blob(['Hello {{email}}'], { type: 'text/plain' }), 'hello.txt');
    const res = await harness.fetch('/dashboard/vault/fill', {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/^\/dashboard\/vault\/documents\/[0-9a-f-]{36}$/);
    const fills = () => harness.requests('vault', 'fillDocument').length;
    expect(fills()).toBe(1);
    for (let reload = 0; reload < 2; reload += 1) {
      const page = await owner.get(location);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('data-testid="fill-filled"');
      expect(html).toContain(`href="${location}/download" data-testid="document-download"`);
    }
    expect(fills()).toBe(1);
    expect(harness.platform.rpc.calls('vault').at(-1)).toMatchObject({
      method: 'getDocument',
      request: { client_id: CLIENT_ID, document_id: location.split('/').at(-1) },
    });
  });
});
