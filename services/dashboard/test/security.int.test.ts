import { bodyOf, rawRequest } from '@svc/gateway/test/support/raw-http';
import { DASHBOARD_CSP } from '../src/security';
import { formBody, setCookie, signIn } from './form-browser';
import { IDLE_MS, MAX_MS, OTHER_CLIENT_ID, PASSWORD } from './memory-stores';
import { type DashboardHarness, startDashboardHarness } from './support';

const REFUSAL = 'The form expired or came from another site. Reload the page and try again.';

function errorStatus(html: string): string | undefined {
  return /data-testid="error" data-status="(\d+)"/.exec(html)?.[1];
}

describe('dashboard security (server side)', () => {
  let harness: DashboardHarness;
  beforeAll(async () => {
    harness = await startDashboardHarness();
  });
  afterAll(async () => harness.close());

  it('sends the strict CSP and no-store on pages, errors and the sign-in page', async () => {
    const owner = await signIn(harness, 'owner@acme.test');
    const answers = await Promise.all([
      harness.fetch('/dashboard/sign-in'),
      owner.get('/dashboard'),
      owner.get('/dashboard/no-such-page'),
      harness.fetch('/dashboard/assets/app.js'),
    ]);
    for (const res of answers) {
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toBe(DASHBOARD_CSP);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
    }
    expect(answers[1]?.headers.get('cache-control')).toBe('no-store');
    // Not helmet's no-referrer: with it a browser sends `Origin: null` on a form POST (refused).
    expect(answers[1]?.headers.get('referrer-policy')).toBe('same-origin');
    expect(answers[2]?.status).toBe(404);
    const page = await answers[1]?.text();
    // No inline script or style anywhere in a rendered page.
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page).not.toMatch(/\sstyle=/);
    expect(page).not.toMatch(/\son[a-z]+=/);
  });

  it('refuses a POST without the CSRF token, with a wrong one, or from another origin', async () => {
    const owner = await signIn(harness, 'owner@acme.test');
    const before = (await harness.keys()).length;
    const form = { name: 'ci', scopes: 'capabilities:run' };
    const refused = await Promise.all([
      owner.post('/dashboard/keys', { ...form, _csrf: null }),
      owner.post('/dashboard/keys', { ...form, _csrf: 'A'.repeat(43) }),
      owner.post('/dashboard/keys', form, { origin: 'https://evil.example' }),
      owner.post('/dashboard/keys', { ...form, _csrf: null }, { 'x-csrf-token': 'nope' }),
    ]);
    for (const res of refused) {
      expect(res.status).toBe(403);
      const html = await res.text();
      expect(errorStatus(html)).toBe('403');
      expect(html).toContain(REFUSAL);
    }
    expect((await harness.keys()).length).toBe(before);
    // The same form with the page's token (and our own Origin) goes through.
    const ok = await owner.post('/dashboard/keys', form, { origin: harness.url });
    expect(ok.status).toBe(303);
    expect((await harness.keys()).length).toBe(before + 1);
  });

  it('a session past its idle time or lifetime sends the browser to sign in, coming back to the page', async () => {
    const owner = await signIn(harness, 'owner@acme.test');
    harness.dashboard.clock += IDLE_MS;
    const idle = await owner.get('/dashboard/keys?x=1');
    expect(idle.status).toBe(303);
    expect(idle.headers.get('location')).toBe(
      `/dashboard/sign-in?next=${encodeURIComponent('/dashboard/keys?x=1')}`,
    );
    const flash = setCookie(idle, 'svc_dashboard_flash');
    expect(flash).toBe('Your session has ended. Sign in again.');
    const signInPage = await harness.fetch(idle.headers.get('location') ?? '', {
      headers: { cookie: `svc_dashboard_flash=${encodeURIComponent(flash ?? '')}` },
    });
    const html = await signInPage.text();
    expect(html).toContain('data-testid="flash"');
    expect(html).toContain('Your session has ended.');
    expect(html).toContain('name="next" value="/dashboard/keys?x=1"');

    // Active all along, but past the absolute lifetime.
    const busy = await signIn(harness, 'owner@acme.test');
    for (let spent = 0; spent < MAX_MS; spent += IDLE_MS / 2) {
      harness.dashboard.clock += IDLE_MS / 2;
      if (spent + IDLE_MS / 2 < MAX_MS) expect((await busy.get('/dashboard')).status).toBe(200);
    }
    expect((await busy.get('/dashboard')).status).toBe(303);
    // A POST of an ended session is not carried out either.
    const before = (await harness.keys()).length;
    const post = await busy.post('/dashboard/keys', { name: 'late', scopes: 'capabilities:run' });
    expect(post.status).toBe(303);
    expect((await harness.keys()).length).toBe(before);
  });

  it('answers 403 for a page the role does not include, and does not act on its POST', async () => {
    const viewer = await signIn(harness, 'viewer@acme.test');
    const page = await viewer.get('/dashboard/keys');
    expect(page.status).toBe(403);
    expect(errorStatus(await page.text())).toBe('403');
    const before = (await harness.keys()).length;
    const post = await viewer.post('/dashboard/keys', { name: 'sneaky', scopes: 'capabilities:run' });
    expect(post.status).toBe(403);
    expect((await harness.keys()).length).toBe(before);
    // The overview is the viewer's, and its navigation has no keys link.
    const overview = await viewer.get('/dashboard');
    expect(overview.status).toBe(200);
    const html = await overview.text();
    expect(html).not.toContain('data-testid="nav-keys"');
    expect(html).toContain('data-testid="nav-usage"');
  });

  it("answers 404 for another client's key id, on the confirmation page and the revoke", async () => {
    const other = await signIn(harness, 'owner@other.test');
    await other.post('/dashboard/keys', { name: 'theirs', scopes: 'capabilities:run' });
    const theirs = (await harness.keys(OTHER_CLIENT_ID)).find((key) => key.label === 'theirs');
    if (theirs === undefined) throw new Error('the other client has no key');
    const owner = await signIn(harness, 'owner@acme.test');
    const confirm = await owner.get(`/dashboard/keys/${theirs.keyId}/revoke`);
    expect(confirm.status).toBe(404);
    expect(errorStatus(await confirm.text())).toBe('404');
    const revoke = await owner.post(`/dashboard/keys/${theirs.keyId}/revoke`);
    expect(revoke.status).toBe(404);
    expect(
      (await harness.keys(OTHER_CLIENT_ID)).find((key) => key.keyId === theirs.keyId)?.revokedAt,
    ).toBeNull();
    expect(harness.platform.revokedKeyIds).not.toContain(theirs.keyId);
    // Not even the list shows it.
    expect(await (await owner.get('/dashboard/keys')).text()).not.toContain(theirs.keyId);
  });

  it('sends a browser without a session to sign in; signs in with the same refusal for a wrong email or password', async () => {
    const anonymous = await harness.fetch('/dashboard/usage', { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fusage');

    const attempt = (email: string, password: string) =>
      harness.fetch('/dashboard/sign-in', {
        method: 'POST',
        body: formBody({ email, password }),
        redirect: 'manual',
      });
    const wrongPassword = await attempt('dev@acme.test', 'nope');
    const wrongEmail = await attempt('nobody@acme.test', PASSWORD);
    expect(wrongPassword.status).toBe(401);
    expect(wrongEmail.status).toBe(401);
    expect(setCookie(wrongPassword, 'svc_dashboard')).toBeUndefined();
    const texts = [await wrongPassword.text(), await wrongEmail.text()];
    for (const text of texts) expect(text).toContain('Wrong email or password.');

    const ok = await attempt('DEV@acme.test ', PASSWORD);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/dashboard');
    const cookie = ok.headers.getSetCookie().find((line) => line.startsWith('svc_dashboard='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\//);

    // Signed in, the sign-in page sends the browser on.
    const again = await harness.fetch('/dashboard/sign-in?next=%2Fdashboard%2Fusage', {
      headers: { cookie: `svc_dashboard=${setCookie(ok, 'svc_dashboard')}` },
      redirect: 'manual',
    });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/dashboard/usage');

    // A `next` off the dashboard is ignored (no open redirect).
    const offsite = await harness.fetch('/dashboard/sign-in', {
      method: 'POST',
      body: formBody({ email: 'dev@acme.test', password: PASSWORD, next: '//evil.example/dashboard' }),
      redirect: 'manual',
    });
    expect(offsite.headers.get('location')).toBe('/dashboard');
  });

  it('answers the throttle with a 429 page naming the wait, before checking the password', async () => {
    const email = 'viewer@acme.test';
    harness.dashboard.failures.set(email, harness.dashboard.limit);
    const res = await harness.fetch('/dashboard/sign-in', {
      method: 'POST',
      body: formBody({ email, password: PASSWORD }),
      redirect: 'manual',
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('600');
    expect(await res.text()).toContain('Too many sign-in attempts. Try again in 10 minutes.');
    harness.dashboard.failures.delete(email);
  });

  it('signs out this session, or every session of the account', async () => {
    const first = await signIn(harness, 'dev@acme.test');
    const second = await signIn(harness, 'dev@acme.test');
    const out = await first.post('/dashboard/sign-out');
    expect(out.status).toBe(303);
    expect((await first.get('/dashboard')).status).toBe(303);
    expect((await second.get('/dashboard')).status).toBe(200);
    const third = await signIn(harness, 'dev@acme.test');
    await third.post('/dashboard/sign-out-everywhere');
    expect((await second.get('/dashboard')).status).toBe(303);
    expect((await third.get('/dashboard')).status).toBe(303);
  });

  it('off loopback, names the cookie __Host-svc_dashboard and marks it Secure', async () => {
    const body = formBody({ email: 'dev@acme.test', password: PASSWORD }).toString();
    const exchange = rawRequest(`${harness.url}/dashboard/sign-in`, 'POST', {
      host: 'dashboard.example.com',
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(Buffer.byteLength(body)),
    });
    exchange.request.end(body);
    const res = await exchange.response;
    await bodyOf(res);
    expect(res.statusCode).toBe(303);
    const cookies = res.headers['set-cookie'] ?? [];
    const session = cookies.find((line) => line.startsWith('__Host-svc_dashboard='));
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*Path=\/(;|$)/);
    expect(cookies.some((line) => line.startsWith('svc_dashboard='))).toBe(false);
  });

  it("answers a refusal of the app's own middleware (before the router) as an HTML page with the CSP", async () => {
    const res = await harness.fetch('/dashboard/keys%00');
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(errorStatus(await res.text())).toBe('422');
  });
});
