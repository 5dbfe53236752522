import { AccountStore } from '@svc/auth';
import { createPrismaClient, type PrismaClient } from '@svc/db';
import {
  pollUntil,
  SHARED_STACK_BEFORE_ALL_MS,
  type SharedTestStack,
  sharedTestStack,
  type TestApiKey,
} from '@svc/testkit';
import { DASHBOARD_CSP } from '../../src/dashboard/security';
import { csrfOf, formBody, setCookie } from './support';

/**
 * The dashboard as main.ts wires it, in the shared platform's gateway: the real stores, the Redis
 * sign-in throttle and one-time notes, the wallet's and the orchestrator's RPCs behind the overview, and a key revoked
 * from the dashboard refused by the API (the `apikey.revoked` event, or the cache's 1 s bound).
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
});
