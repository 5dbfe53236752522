import { randomBytes } from 'node:crypto';
import { generateApiKey } from '@svc/auth';
import type { AppDeps } from '../../src/app';
import { type NoteStorage, oneTimeNotes } from '../../src/dashboard/one-time-notes';
import type {
  DashboardApiKey,
  DashboardApiKeys,
  DashboardOptions,
  SignedInAccount,
  StartedSession,
} from '../../src/dashboard/ports';
import { type AppHarness, CLIENT_ID, OTHER_CLIENT_ID, startAppHarness } from '../support/app-harness';

/**
 * In-memory stand-ins for the dashboard's ports (the real stores are @svc/auth's, tested there and in
 * the browser suite) and a harness that signs in over HTTP like a browser: cookies by hand, the CSRF
 * token read from the page's hidden `_csrf` input.
 */

export const PASSWORD = 'correct horse battery staple';
// ms: the fake store's session limits (the real ones come from DASHBOARD_SESSION_* in the store).
export const IDLE_MS = 60 * 60_000;
export const MAX_MS = 12 * 3_600_000;

/**
 * One-time notes' storage in this process (the gateway's is Redis: one-time-notes.int.test.ts), with
 * what it holds open to the tests (sealed values only) and a switch that makes it fail like Redis down.
 */
export class MemoryNoteStorage implements NoteStorage {
  readonly values = new Map<string, string>();
  down = false;

  async put(name: string, value: string): Promise<void> {
    if (this.down) throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
    this.values.set(name, value);
  }

  async take(name: string): Promise<string | null> {
    if (this.down) throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
    const value = this.values.get(name) ?? null;
    this.values.delete(name);
    return value;
  }
}

interface FakeSession {
  account: SignedInAccount;
  expiresAt: number;
  lastSeen: number;
  ended: boolean;
}

interface FakeKey extends DashboardApiKey {
  clientId: string;
}

export class FakeDashboard implements DashboardOptions {
  clock = Date.parse('2026-11-27T10:00:00Z');
  readonly now = () => this.clock;
  readonly people = new Map<string, SignedInAccount>();
  readonly sessionsByToken = new Map<string, FakeSession>();
  readonly failures = new Map<string, number>();
  readonly revokedEvents: string[] = [];
  readonly keys: FakeKey[] = [];
  /** Failures after which the fake gate refuses (per email). */
  limit = 5;
  readonly noteStorage = new MemoryNoteStorage();
  readonly oneTimeNotes = oneTimeNotes(this.noteStorage);

  constructor() {
    this.addAccount('owner@acme.test', 'owner', CLIENT_ID, 'acme');
    this.addAccount('dev@acme.test', 'developer', CLIENT_ID, 'acme');
    this.addAccount('viewer@acme.test', 'viewer', CLIENT_ID, 'acme');
    this.addAccount('owner@other.test', 'owner', OTHER_CLIENT_ID, 'other');
  }

  addAccount(email: string, role: string, clientId: string, clientName: string): SignedInAccount {
    const account = { id: `acc-${this.people.size + 1}`, email, role, clientId, clientName };
    this.people.set(email, account);
    return account;
  }

  readonly accounts = {
    verifyPassword: async (email: string, password: string) =>
      password === PASSWORD ? (this.people.get(email) ?? null) : null,
  };

  readonly sessions = {
    start: async (input: { accountId: string }): Promise<StartedSession> => {
      const account = [...this.people.values()].find((a) => a.id === input.accountId);
      if (account === undefined) throw new Error('unknown account');
      const token = randomBytes(32).toString('base64url');
      const expiresAt = this.clock + MAX_MS;
      this.sessionsByToken.set(token, { account, expiresAt, lastSeen: this.clock, ended: false });
      return { token, expiresAt: new Date(expiresAt) };
    },
    lookup: async (token: string) => {
      const session = this.sessionsByToken.get(token);
      if (session === undefined || session.ended) return null;
      if (this.clock >= session.expiresAt || this.clock - session.lastSeen >= IDLE_MS) return null;
      session.lastSeen = this.clock;
      return session.account;
    },
    end: async (token: string) => {
      const session = this.sessionsByToken.get(token);
      if (session) session.ended = true;
    },
    endAll: async (accountId: string) => {
      for (const session of this.sessionsByToken.values())
        if (session.account.id === accountId) session.ended = true;
    },
  };

  readonly signInGate = {
    retryAfterSeconds: async (email: string) => ((this.failures.get(email) ?? 0) >= this.limit ? 600 : 0),
    failed: async (email: string) => {
      this.failures.set(email, (this.failures.get(email) ?? 0) + 1);
    },
    succeeded: async (email: string) => {
      this.failures.delete(email);
    },
  };

  readonly apiKeys: DashboardApiKeys = {
    listForClient: async (clientId) => this.keys.filter((key) => key.clientId === clientId),
    createForClient: async (input) => {
      const { keyId, apiKey } = generateApiKey();
      this.keys.push({
        clientId: input.clientId,
        keyId,
        scopes: [...input.scopes],
        label: input.label,
        createdAt: new Date(this.clock),
        lastUsedAt: null,
        expiresAt: input.expiresAt,
        revokedAt: null,
      });
      return { keyId, apiKey };
    },
    revokeForClient: async (clientId, keyId) => {
      const index = this.keys.findIndex(
        (k) => k.clientId === clientId && k.keyId === keyId && k.revokedAt === null,
      );
      const key = this.keys[index];
      if (key === undefined) return false;
      this.keys[index] = { ...key, revokedAt: new Date(this.clock) };
      return true;
    },
  };

  readonly keyRevoked = async (keyId: string) => {
    this.revokedEvents.push(keyId);
  };
}

export interface DashboardHarness extends AppHarness {
  readonly dashboard: FakeDashboard;
}

export async function startDashboardHarness(overrides: Partial<AppDeps> = {}): Promise<DashboardHarness> {
  const dashboard = new FakeDashboard();
  const harness = await startAppHarness({ dashboard, ...overrides });
  return Object.assign(harness, { dashboard });
}

/** A browser's view of one signed-in person: its cookie, and the CSRF token of its pages. */
export interface Browser {
  readonly cookie: string;
  readonly csrf: string;
  get(path: string): Promise<Response>;
  /** POSTs a urlencoded form; `_csrf` is added unless `fields` sets it (or `null` leaves it out). */
  post(
    path: string,
    fields?: Record<string, string | string[] | null>,
    headers?: Record<string, string>,
  ): Promise<Response>;
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (match?.[1] === undefined) throw new Error('no _csrf input in the page');
  return match[1];
}

export function formBody(fields: Record<string, string | string[] | null>): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  }
  return body;
}

/** The value of a Set-Cookie `name=` in `res` (undefined when not set). */
export function setCookie(res: Response, name: string): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    if (pair.slice(0, eq) === name) return decodeURIComponent(pair.slice(eq + 1));
  }
  return undefined;
}

export async function signIn(harness: AppHarness, email: string, password = PASSWORD): Promise<Browser> {
  const res = await harness.fetch('/dashboard/sign-in', {
    method: 'POST',
    body: formBody({ email, password }),
    redirect: 'manual',
  });
  const token = setCookie(res, 'svc_dashboard');
  if (res.status !== 303 || token === undefined) throw new Error(`sign-in failed: ${res.status}`);
  const cookie = `svc_dashboard=${token}`;
  const overview = await harness.fetch('/dashboard', { headers: { cookie }, redirect: 'manual' });
  const csrf = csrfOf(await overview.text());
  const get = (path: string) => harness.fetch(path, { headers: { cookie }, redirect: 'manual' });
  const post: Browser['post'] = (path, fields = {}, headers = {}) =>
    harness.fetch(path, {
      method: 'POST',
      headers: { cookie, ...headers },
      body: formBody({ _csrf: csrf, ...fields }),
      redirect: 'manual',
    });
  return { cookie, csrf, get, post };
}
