import { randomBytes } from 'node:crypto';
import type { ApiKeyStore } from '@svc/auth';
import { AccountStore, SessionStore } from '@svc/auth/accounts';
import { deleteKeysWithPrefix, pollUntil, testRedisUrl } from '@svc/testkit';
import { Redis } from 'ioredis';
import { oneTimeNotes, redisNoteStorage } from '../src/one-time-notes';
import { dashboardPeople } from '../src/people';
import { type Browser, formBody, setCookie } from './form-browser';
import {
  type DashboardHarness,
  type DashboardPlatform,
  platformPorts,
  startDashboardHarness,
  suitePlatform,
} from './support';

/**
 * The dashboard over @svc/auth's real stores (PostgreSQL, argon2id) on the platform's database, the
 * gateway's real `keys` handlers over its real key store (in-memory transport; `apikey.revoked` on
 * the bus), and its one-time notes in Redis: what main.ts wires, minus the Redis throttle. The
 * pages' own rules are in security.int.test.ts and pages.int.test.ts.
 */

const PASSWORD = 'a long enough test password 42';
const HOUR_MS = 3_600_000;

describe('dashboard over the real account, session and API key stores', () => {
  let platform: DashboardPlatform;
  let redis: Redis;
  const prefix = `dashc${randomBytes(4).toString('hex')}`;
  let harness: DashboardHarness;
  let keyStore: ApiKeyStore;
  let clock = Date.now();
  let acmeId = '';
  let otherKeyId = '';

  beforeAll(async () => {
    platform = await suitePlatform();
    // Like the bus's producer connection: no offline queue, so wait until it is ready.
    redis = new Redis(testRedisUrl(), { enableOfflineQueue: false, lazyConnect: true });
    await redis.connect();
    keyStore = platform.keyStore;
    const acme = await keyStore.create({ clientName: 'acme-dashboard', scopes: ['billing:read'] });
    const other = await keyStore.create({ clientName: 'other-dashboard', scopes: ['billing:read'] });
    acmeId = acme.clientId;
    otherKeyId = other.keyId;
    const accounts = new AccountStore(platform.prisma);
    await accounts.create({
      clientId: acme.clientId,
      email: 'Owner@Acme.test',
      role: 'owner',
      password: PASSWORD,
    });
    const now = () => new Date(clock);
    const { keys } = platformPorts(platform);
    harness = await startDashboardHarness({
      ...dashboardPeople({
        accounts,
        sessions: new SessionStore(platform.prisma, { maxAgeMs: 12 * HOUR_MS, idleMs: HOUR_MS, now }),
        keys,
      }),
      signInGate: {
        retryAfterSeconds: async () => 0,
        failed: async () => undefined,
        succeeded: async () => undefined,
      },
      keys,
      oneTimeNotes: oneTimeNotes(redisNoteStorage({ redis, prefix })),
      now: () => clock,
    });
  });

  afterAll(async () => {
    await harness?.close();
    await redis?.quit();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  async function signIn(email: string, password: string): Promise<Browser | number> {
    const res = await harness.fetch('/dashboard/sign-in', {
      method: 'POST',
      body: formBody({ email, password }),
      redirect: 'manual',
    });
    const token = setCookie(res, 'svc_dashboard');
    if (token === undefined) return res.status;
    const cookie = `svc_dashboard=${token}`;
    const page = await (await harness.fetch('/dashboard/keys', { headers: { cookie } })).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    return {
      cookie,
      csrf,
      get: (path) => harness.fetch(path, { headers: { cookie }, redirect: 'manual' }),
      post: (path, fields = {}) =>
        harness.fetch(path, {
          method: 'POST',
          headers: { cookie },
          body: formBody({ _csrf: csrf, ...fields }),
          redirect: 'manual',
        }),
    };
  }

  async function owner(): Promise<Browser> {
    const browser = await signIn('owner@acme.test', PASSWORD);
    if (typeof browser === 'number') throw new Error(`sign-in refused: ${browser}`);
    return browser;
  }

  it('signs in with the argon2id password, refuses a wrong one and an unknown email alike', async () => {
    expect(await signIn('owner@acme.test', 'not the password at all')).toBe(401);
    expect(await signIn('nobody@acme.test', PASSWORD)).toBe(401);
    const browser = await owner();
    expect((await browser.get('/dashboard/keys')).status).toBe(200);
  });

  it('creates a key that verifies with its scopes and expiry, lists it, and revokes it', async () => {
    const browser = await owner();
    const created = await browser.post('/dashboard/keys', {
      name: 'from the dashboard',
      scopes: ['capabilities:run', 'vault:read'],
      expires_at: new Date(clock + 40 * 24 * HOUR_MS).toISOString().slice(0, 10),
    });
    expect(created.status).toBe(303);
    const shown = await browser.get(created.headers.get('location') ?? '');
    const apiKey = /data-testid="new-api-key">([^<]+)</.exec(await shown.text())?.[1] ?? '';
    const verified = await keyStore.verify(apiKey);
    expect(verified).toMatchObject({ clientId: acmeId, scopes: ['capabilities:run', 'vault:read'] });
    const keyId = verified?.keyId ?? '';
    const expiry = new Date(clock + 40 * 24 * HOUR_MS).toISOString().slice(0, 10);
    const listed = (await keyStore.listForClient(acmeId)).find((key) => key.keyId === keyId);
    expect(listed?.expiresAt?.toISOString()).toBe(`${expiry}T00:00:00.000Z`);
    expect(listed?.label).toBe('from the dashboard');
    const list = await (await browser.get('/dashboard/keys')).text();
    expect(list).toContain(`data-key-id="${keyId}"`);

    const revoked = await browser.post(`/dashboard/keys/${keyId}/revoke`);
    expect(revoked.status).toBe(303);
    expect(await keyStore.verify(apiKey)).toBeNull();
    await pollUntil(() => platform.revokedKeyIds.includes(keyId), { what: 'apikey.revoked for the key' });
    expect(platform.revokedKeyIds).toEqual([keyId]);
  });

  it("answers 404 for another client's key and leaves it working", async () => {
    const browser = await owner();
    expect((await browser.get(`/dashboard/keys/${otherKeyId}/revoke`)).status).toBe(404);
    expect((await browser.post(`/dashboard/keys/${otherKeyId}/revoke`)).status).toBe(404);
    const others = await keyStore.list({ clientName: 'other-dashboard' });
    expect(others.find((key) => key.keyId === otherKeyId)?.revokedAt).toBeNull();
    expect(platform.revokedKeyIds).not.toContain(otherKeyId);
  });

  it('ends a session after the idle timeout, and every session on "sign out everywhere"', async () => {
    const idle = await owner();
    clock += HOUR_MS + 120_000;
    const res = await idle.get('/dashboard/usage');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fusage');

    const first = await owner();
    const second = await owner();
    expect((await second.post('/dashboard/sign-out-everywhere')).status).toBe(303);
    expect((await first.get('/dashboard/keys')).status).toBe(303);
  });
});
