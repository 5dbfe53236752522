import { AccountStore } from '@svc/auth/accounts';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import {
  pollUntil,
  SHARED_STACK_BEFORE_ALL_MS,
  type SharedTestStack,
  sharedTestStack,
  type TestApiKey,
} from '@svc/testkit';
import { DASHBOARD_CSP } from '../src/security';
import { csrfOf, formBody, setCookie } from './form-browser';

/**
 * The dashboard as main.ts wires it, its own process behind the shared platform's gateway (which
 * proxies /dashboard to it): the real stores, the Redis sign-in throttle and one-time notes, the
 * wallet's and the orchestrator's RPCs behind the overview, keys made and revoked through the
 * gateway's `keys` RPC, and a key revoked from the dashboard refused by the API (the
 * `apikey.revoked` event, or the cache's 1 s bound).
 */

const PASSWORD = 'platform dashboard password 7';

describe('dashboard in the running gateway', () => {
  let stack: SharedTestStack;
  let prisma: PrismaClient;
  let client: TestApiKey;
  const email = `owner-${Date.now()}@dashboard.test`;

  beforeAll(async () => {
    stack = await sharedTestStack();
    prisma = createPrismaClient(stack.databaseUrl, { max: 2 });
    client = await stack.createApiKey({ scopes: ['billing:read'] });
    await new AccountStore(prisma).create({
      clientId: client.clientId,
      email,
      role: 'owner',
      password: PASSWORD,
    });
  }, SHARED_STACK_BEFORE_ALL_MS);

  afterAll(async () => {
    await prisma?.$disconnect();
    await stack?.close();
  });

  const at = (path: string, init: RequestInit = {}) =>
    fetch(`${stack.gatewayUrl}${path}`, { redirect: 'manual', signal: AbortSignal.timeout(15_000), ...init });

  it('signs in, shows the overview from the wallet and the orchestrator, and a revoked key stops working', async () => {
    const signIn = await at('/dashboard/sign-in', {
      method: 'POST',
      body: formBody({ email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(303);
    const cookie = `svc_dashboard=${setCookie(signIn, 'svc_dashboard')}`;

    const overview = await at('/dashboard', { headers: { cookie } });
    expect(overview.status).toBe(200);
    expect(overview.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    const html = await overview.text();
    for (const id of ['balance', 'spend-chart', 'runs-by-state', 'projection']) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    const csrf = csrfOf(html);

    const created = await at('/dashboard/keys', {
      method: 'POST',
      headers: { cookie },
      body: formBody({ _csrf: csrf, name: 'platform check', scopes: 'billing:read' }),
    });
    // POST-redirect-GET: the key is on the page the 303 leads to, kept there by the Redis note.
    expect(created.status).toBe(303);
    const shown = await at(created.headers.get('location') ?? '', { headers: { cookie } });
    expect(shown.status).toBe(200);
    const apiKey = /data-testid="new-api-key">([^<]+)</.exec(await shown.text())?.[1] ?? '';
    const whoami = () =>
      at('/api/account/whoami', { headers: { authorization: `Bearer ${apiKey}` } }).then((res) => res.status);
    expect(await whoami()).toBe(200);

    const keyId = /^svc_live_([a-z0-9]{12})_/.exec(apiKey)?.[1] ?? '';
    const revoked = await at(`/dashboard/keys/${keyId}/revoke`, {
      method: 'POST',
      headers: { cookie },
      body: formBody({ _csrf: csrf }),
    });
    expect(revoked.status).toBe(303);
    await pollUntil(async () => (await whoami()) === 401, {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: 'the revoked key refused',
    });
  });

  it("answers the gateway's own refusal under /dashboard with the dashboard's HTML page", async () => {
    // A NUL in the path: refused by the gateway before any proxying (422), shown as the dashboard's page.
    const res = await at('/dashboard/keys%00');
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(await res.text()).toContain('data-testid="error" data-status="422"');
  });
});
