import { randomBytes } from 'node:crypto';
import { type NoteStorage, oneTimeNotes } from '../src/one-time-notes';
import type { DashboardStores, SignedInAccount, StartedSession } from '../src/ports';

/**
 * The dashboard's own stores in this process, with their state open to tests and a clock they move:
 * accounts, sessions, the sign-in gate and one-time notes. The real ones are @svc/auth's and Redis
 * (stores.int.test.ts, one-time-notes.int.test.ts and the browser suite); the platform's services
 * behind the pages are the real ones (support.ts), never stand-ins.
 */

export const CLIENT_ID = '5f0c7a62-3c39-4f4e-9a55-0d3c6f0e8a11';
/** A second client, for "only the owner sees it". */
export const OTHER_CLIENT_ID = '0b9d3c1e-7a4f-4e2b-8c6d-5e1f2a3b4c5d';

export const PASSWORD = 'correct horse battery staple';
// ms: the memory store's session limits (the real ones come from DASHBOARD_SESSION_* in the store).
export const IDLE_MS = 60 * 60_000;
export const MAX_MS = 12 * 3_600_000;

/**
 * One-time notes' storage in this process (the dashboard's is Redis: one-time-notes.int.test.ts),
 * with what it holds open to the tests (sealed values only) and a switch that makes it fail like
 * Redis down.
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

interface MemorySession {
  account: SignedInAccount;
  expiresAt: number;
  lastSeen: number;
  ended: boolean;
}

/** The dashboard's stores in memory: three people of acme (one per role) and an owner of the other client. */
export class FakeDashboard implements DashboardStores {
  clock = Date.parse('2026-11-27T10:00:00Z');
  readonly now = () => this.clock;
  readonly people = new Map<string, SignedInAccount>();
  readonly sessionsByToken = new Map<string, MemorySession>();
  readonly failures = new Map<string, number>();
  /** Failures after which the gate refuses (per email). */
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
}
