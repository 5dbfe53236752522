import { memoryLogger } from '@svc/log';
import type { Router } from 'express';
import type { PlatformPorts } from '../src/ports';
import { dashboardRouter } from '../src/router';
import { CSRF_REFUSAL } from '../src/security';
import { type Browser, signIn } from './form-browser';
import { CLIENT_ID, FakeDashboard } from './memory-stores';
import { type DashboardHarness, platformPorts, startDashboardHarness } from './support';

/**
 * Issue 23 item 14: the CSRF check holds on every state-changing dashboard route, whatever the body
 * type. The POST routes are read from the router dashboardRouter() builds (not a hand list), so a route
 * added later is walked too; each is sent, by a signed-in owner, a body without a token and without an
 * Origin as urlencoded, multipart, JSON, plain text and nothing at all, and must answer the 403 refusal
 * with nothing changed (keys, revocations, sessions, runs, vault, uploads).
 */

/** Every POST path of the dashboard's router (relative to /dashboard), in mount order. */
function postPaths(router: Router): string[] {
  return router.stack.flatMap((layer) =>
    layer.route?.stack.some((handler) => handler.method === 'post') ? [layer.route.path] : [],
  );
}

/** A router as app.ts builds it: only its route table is read (no request reaches it). */
function routeTable(ports: PlatformPorts): string[] {
  const stores = new FakeDashboard();
  return postPaths(
    dashboardRouter({
      accounts: stores.accounts,
      sessions: stores.sessions,
      signInGate: stores.signInGate,
      oneTimeNotes: stores.oneTimeNotes,
      ...ports,
      logger: memoryLogger('dashboard').logger,
      uploadsData: { baseUrl: 'http://127.0.0.1:9', connectTimeoutMs: 100 },
    }),
  );
}

/** The one POST taken without a session (it has no token to check: Origin only, decisions DB4). */
const SIGN_IN = '/sign-in';

type BodyKind = 'urlencoded' | 'multipart' | 'json' | 'text' | 'empty';
const BODY_KINDS: readonly BodyKind[] = ['urlencoded', 'multipart', 'json', 'text', 'empty'];

/** What a form of any page might carry, minus `_csrf`. */
const FIELDS = {
  name: 'walked',
  scopes: 'billing:read',
  type: 'email',
  value: 'a@b.example',
  fields: 'email',
  expected_version: '1',
};

function request(kind: BodyKind): { body?: BodyInit; headers: Record<string, string> } {
  switch (kind) {
    case 'urlencoded':
      return {
        body: new URLSearchParams(FIELDS),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      };
    case 'multipart': {
      const form = new FormData();
      for (const [name, value] of Object.entries(FIELDS)) form.append(name, value);
      form.append('template', new Blob(['Hello {{email}}'], { type: 'text/plain' }), 'walk.txt');
      return { body: form, headers: {} };
    }
    case 'json':
      return { body: JSON.stringify(FIELDS), headers: { 'content-type': 'application/json' } };
    case 'text':
      return { body: new URLSearchParams(FIELDS).toString(), headers: { 'content-type': 'text/plain' } };
    case 'empty':
      return { headers: {} };
  }
}

describe('CSRF on every dashboard POST route, whatever the body', () => {
  let harness: DashboardHarness;
  let owner: Browser;
  const values: Record<string, string> = {};

  beforeAll(async () => {
    harness = await startDashboardHarness();
    owner = await signIn(harness, 'owner@acme.test');
    // Each path parameter names something of the owner's own that the action would change.
    const key = await harness.platform.client('keys').createKey({
      client_id: CLIENT_ID,
      scopes: ['billing:read'],
      label: 'kept',
      expires_at: null,
    });
    // A paid run no worker takes: it stays queued, so cancel would cancel it.
    const runId = await harness.runs.startRun(CLIENT_ID, 'pii-redact', { text: 'x' });
    await harness.platform.client('vault').saveField({
      client_id: CLIENT_ID,
      request_id: 'csrf-every-post',
      field: { name: 'email', type: 'email', value: 'jana@example.com' },
    });
    Object.assign(values, {
      keyId: key.key_id,
      runId,
      name: 'email',
      id: '0f4ad1f4-5d0c-4c5e-8f57-6d1c1b0e2a77',
    });
  });
  afterAll(async () => harness.close());

  /** Everything a dashboard action could change, as comparable data (the services' state included). */
  async function state() {
    const { fields } = await harness.platform.client('vault').listFields({ client_id: CLIENT_ID });
    const run = await harness.platform.client('orchestrator').getRun({
      client_id: CLIENT_ID,
      run_id: values.runId ?? '',
    });
    return JSON.stringify({
      keys: await harness.keys(),
      revoked: harness.platform.revokedKeyIds,
      sessions: [...harness.dashboard.sessionsByToken.values()].map((session) => session.ended),
      cancels: harness.requests('orchestrator', 'cancelRun'),
      run: run.status,
      fields: fields.map((field) => [field.name, field.version]),
      vault: harness.platform.rpc
        .calls('vault')
        .map((call) => call.method)
        .filter((method) =>
          ['saveField', 'deleteField', 'reviewExtraction', 'fillDocument'].includes(method),
        ),
      uploads: harness.requests('uploads', 'createSession').length,
    });
  }

  function concrete(path: string): string {
    return path.replace(/:(\w+)/g, (_match, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`no test value for :${name} of ${path}: add one above`);
      return encodeURIComponent(value);
    });
  }

  it('reads the state-changing routes from the router: sign-out, keys, runs and vault among them', () => {
    const paths = routeTable(platformPorts(harness.platform));
    expect(paths).toEqual(
      expect.arrayContaining([
        SIGN_IN,
        '/sign-out',
        '/sign-out-everywhere',
        '/keys',
        '/keys/:keyId/revoke',
        '/runs/:runId/cancel',
        '/vault/fields',
        '/vault/fields/:name/delete',
        '/vault/extractions/:id/review',
        '/vault/fill',
      ]),
    );
  });

  it('sends every POST route but sign-in to sign-in when there is no session', async () => {
    for (const path of routeTable(platformPorts(harness.platform)).filter((p) => p !== SIGN_IN)) {
      const res = await harness.fetch(`/dashboard${concrete(path)}`, {
        method: 'POST',
        ...request('urlencoded'),
        redirect: 'manual',
      });
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 303, '/dashboard/sign-in']);
    }
  });

  it('refuses each of them without a token, for every body type, and changes nothing', async () => {
    const paths = routeTable(platformPorts(harness.platform)).filter((p) => p !== SIGN_IN);
    const before = await state();
    // Something for each action to change: a queued run, a field, a live key.
    expect(JSON.parse(before)).toMatchObject({ run: 'queued', fields: [['email', 1]] });
    for (const path of paths) {
      for (const kind of BODY_KINDS) {
        const { body, headers } = request(kind);
        const res = await harness.fetch(`/dashboard${concrete(path)}`, {
          method: 'POST',
          headers: { cookie: owner.cookie, ...headers },
          ...(body === undefined ? {} : { body }),
          redirect: 'manual',
        });
        const html = await res.text();
        expect({ path, kind, status: res.status, refused: html.includes(CSRF_REFUSAL) }).toEqual({
          path,
          kind,
          status: 403,
          refused: true,
        });
        expect(await state()).toBe(before);
        // The session is still there (sign-out was not carried out).
        expect((await owner.get('/dashboard')).status).toBe(200);
      }
    }
  });
});
