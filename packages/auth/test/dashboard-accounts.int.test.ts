import { createHash, randomBytes } from 'node:crypto';
import { createMigratedDatabase, createPrismaClient, dropDatabase, type PrismaClient } from '@svc/db';
import { AccountExistsError, AccountNotFoundError, AccountStore } from '../src/account-store';
import { PasswordPolicyError } from '../src/password';
import { SessionStore } from '../src/session-store';

// Real PostgreSQL: a fresh, migrated database per run of this suite, dropped afterwards.
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE_URL = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/auth_accounts_${randomBytes(6).toString('hex')}`;
  return url.toString();
})();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PASSWORD = 'a long enough password';

let prisma: PrismaClient;
let clock: Date;
const now = () => clock;
let accounts: AccountStore;
let sessions: SessionStore;
let clientId: string;

beforeAll(async () => {
  await createMigratedDatabase(DATABASE_URL);
  prisma = createPrismaClient(DATABASE_URL);
  accounts = new AccountStore(prisma, { now });
  sessions = new SessionStore(prisma, { maxAgeMs: 12 * HOUR, idleMs: 60 * MINUTE, now });
  clientId = (await prisma.client.create({ data: { name: 'acme' } })).id;
});

beforeEach(() => {
  clock = new Date('2026-11-27T10:00:00.000Z');
});

afterAll(async () => {
  await prisma?.$disconnect();
  await dropDatabase(DATABASE_URL);
});

let serial = 0;
async function newAccount(role: 'owner' | 'developer' | 'viewer' = 'owner') {
  serial += 1;
  return accounts.create({ clientId, email: `Person${serial}@Example.com `, role, password: PASSWORD });
}

describe('AccountStore', () => {
  it('creates an account with a lowercased email and an argon2id hash, never the password', async () => {
    const account = await newAccount('developer');
    expect(account).toMatchObject({ clientId, role: 'developer', disabledAt: null });
    // The client's name is the gateway's (auth.clients): no join from the dashboard's schema.
    expect(account).not.toHaveProperty('clientName');
    expect(account.email).toBe(`person${serial}@example.com`);
    const row = await prisma.dashboardAccount.findUniqueOrThrow({ where: { id: account.id } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(PASSWORD);
    expect(account).not.toHaveProperty('passwordHash');
  });

  it('refuses a taken email (any case), a bad email, an unknown role and a short password', async () => {
    const account = await newAccount();
    await expect(
      accounts.create({ clientId, email: account.email.toUpperCase(), role: 'viewer', password: PASSWORD }),
    ).rejects.toBeInstanceOf(AccountExistsError);
    await expect(
      accounts.create({ clientId, email: 'no-at-sign', role: 'viewer', password: PASSWORD }),
    ).rejects.toThrow(RangeError);
    await expect(
      // biome-ignore lint/suspicious/noExplicitAny: an unknown role from an untyped caller
      accounts.create({ clientId, email: 'x@example.com', role: 'admin' as any, password: PASSWORD }),
    ).rejects.toThrow('unknown role');
    await expect(
      accounts.create({ clientId, email: 'y@example.com', role: 'viewer', password: 'short' }),
    ).rejects.toBeInstanceOf(PasswordPolicyError);
    expect(
      await prisma.dashboardAccount.count({ where: { email: { in: ['x@example.com', 'y@example.com'] } } }),
    ).toBe(0);
  });

  it('verifies email (any case) + password; wrong password, unknown email and disabled account give null', async () => {
    const account = await newAccount();
    expect((await accounts.verifyPassword(` ${account.email.toUpperCase()}`, PASSWORD))?.id).toBe(account.id);
    expect(await accounts.verifyPassword(account.email, `${PASSWORD}x`)).toBeNull();
    expect(await accounts.verifyPassword('nobody@example.com', PASSWORD)).toBeNull();
    await accounts.disable(account.email);
    expect(await accounts.verifyPassword(account.email, PASSWORD)).toBeNull();
  });

  it('lists accounts of one client', async () => {
    const other = (await prisma.client.create({ data: { name: 'other-co' } })).id;
    await accounts.create({
      clientId: other,
      email: 'solo@other.example',
      role: 'viewer',
      password: PASSWORD,
    });
    const listed = await accounts.list({ clientId: other });
    expect(listed.map((a) => [a.email, a.role, a.clientId])).toEqual([
      ['solo@other.example', 'viewer', other],
    ]);
    expect((await accounts.list()).length).toBeGreaterThan(1);
  });

  it('a password change takes effect and revokes every session of the account', async () => {
    const account = await newAccount();
    const first = await sessions.start({ accountId: account.id });
    const second = await sessions.start({ accountId: account.id });
    clock = new Date(clock.getTime() + MINUTE);
    const result = await accounts.setPassword(account.email, 'a brand new password');
    expect(result.revokedSessions).toBe(2);
    expect(await sessions.lookup(first.token)).toBeNull();
    expect(await sessions.lookup(second.token)).toBeNull();
    expect(await accounts.verifyPassword(account.email, PASSWORD)).toBeNull();
    expect((await accounts.verifyPassword(account.email, 'a brand new password'))?.id).toBe(account.id);
    expect((await accounts.findById(account.id))?.passwordChangedAt).toEqual(clock);
    await expect(accounts.setPassword('nobody@example.com', 'a brand new password')).rejects.toBeInstanceOf(
      AccountNotFoundError,
    );
  });

  it('disabling revokes the sessions, keeps the first disabled_at, and unknown emails throw', async () => {
    const account = await newAccount();
    const session = await sessions.start({ accountId: account.id });
    expect((await accounts.disable(account.email)).revokedSessions).toBe(1);
    expect(await sessions.lookup(session.token)).toBeNull();
    const disabledAt = (await accounts.findByEmail(account.email))?.disabledAt;
    expect(disabledAt).toEqual(clock);
    clock = new Date(clock.getTime() + HOUR);
    await accounts.disable(account.email);
    expect((await accounts.findByEmail(account.email))?.disabledAt).toEqual(disabledAt);
    await expect(accounts.disable('nobody@example.com')).rejects.toBeInstanceOf(AccountNotFoundError);
  });
});

describe('SessionStore', () => {
  it('starts a session: 32-byte base64url token, only its SHA-256 stored, absolute expiry set', async () => {
    const account = await newAccount('viewer');
    const started = await sessions.start({ accountId: account.id, userAgent: 'jest', ip: '127.0.0.1' });
    expect(started.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(started.token, 'base64url')).toHaveLength(32);
    expect(started.expiresAt).toEqual(new Date(clock.getTime() + 12 * HOUR));
    const row = await prisma.dashboardSession.findUniqueOrThrow({ where: { id: started.sessionId } });
    expect(Buffer.from(row.tokenHash).equals(createHash('sha256').update(started.token).digest())).toBe(true);
    expect(
      JSON.stringify({ ...row, tokenHash: Buffer.from(row.tokenHash).toString('base64url') }),
    ).not.toContain(started.token);
    expect(row).toMatchObject({ userAgent: 'jest', ip: '127.0.0.1', revokedAt: null });
    expect(await sessions.lookup(started.token)).toEqual({
      id: account.id,
      email: account.email,
      role: 'viewer',
      clientId,
      sessionId: started.sessionId,
    });
  });

  it('refuses unknown and malformed tokens', async () => {
    expect(await sessions.lookup(randomBytes(32).toString('base64url'))).toBeNull();
    expect(await sessions.lookup('not a token')).toBeNull();
    expect(await sessions.lookup('')).toBeNull();
  });

  it('ends after the idle timeout without requests, and writes last_seen_at at most once a minute', async () => {
    const account = await newAccount();
    const started = await sessions.start({ accountId: account.id });
    const lastSeen = async () =>
      (await prisma.dashboardSession.findUniqueOrThrow({ where: { id: started.sessionId } })).lastSeenAt;
    const startedAt = clock;

    clock = new Date(startedAt.getTime() + 59_000);
    expect(await sessions.lookup(started.token)).not.toBeNull();
    expect(await lastSeen()).toEqual(startedAt); // within the minute: no write

    clock = new Date(startedAt.getTime() + 59 * MINUTE);
    expect(await sessions.lookup(started.token)).not.toBeNull();
    expect(await lastSeen()).toEqual(clock); // touched: the idle clock restarts here
    const touchedAt = clock;

    clock = new Date(touchedAt.getTime() + 60 * MINUTE - 1);
    expect(await sessions.lookup(started.token)).not.toBeNull();
    clock = new Date(clock.getTime() + 60 * MINUTE); // an hour without requests
    expect(await sessions.lookup(started.token)).toBeNull();
  });

  it('ends at its absolute expiry however active it is', async () => {
    const account = await newAccount();
    const started = await sessions.start({ accountId: account.id });
    for (let minutes = 30; minutes < 12 * 60; minutes += 30) {
      clock = new Date(started.expiresAt.getTime() - 12 * HOUR + minutes * MINUTE);
      expect(await sessions.lookup(started.token)).not.toBeNull();
    }
    clock = started.expiresAt;
    expect(await sessions.lookup(started.token)).toBeNull();
  });

  it('sign-out ends one session (row deleted); sign out everywhere revokes all of the account only', async () => {
    const account = await newAccount();
    const someoneElse = await newAccount();
    const a = await sessions.start({ accountId: account.id });
    const b = await sessions.start({ accountId: account.id });
    const c = await sessions.start({ accountId: account.id });
    const other = await sessions.start({ accountId: someoneElse.id });

    await sessions.end(a.token);
    expect(await prisma.dashboardSession.count({ where: { id: a.sessionId } })).toBe(0);
    expect(await sessions.lookup(a.token)).toBeNull();
    expect(await sessions.lookup(b.token)).not.toBeNull();

    expect(await sessions.endAll(account.id)).toBe(2);
    expect(await sessions.lookup(b.token)).toBeNull();
    expect(await sessions.lookup(c.token)).toBeNull();
    expect(await sessions.lookup(other.token)).not.toBeNull();
    expect(await sessions.endAll(account.id)).toBe(0);
  });

  it('a new session deletes the account sessions that are already over', async () => {
    const account = await newAccount();
    const revoked = await sessions.start({ accountId: account.id });
    await sessions.endAll(account.id);
    const idle = await sessions.start({ accountId: account.id });
    clock = new Date(clock.getTime() + 2 * HOUR);
    const fresh = await sessions.start({ accountId: account.id });
    const ids = (await prisma.dashboardSession.findMany({ where: { accountId: account.id } })).map(
      (s) => s.id,
    );
    expect(ids).toEqual([fresh.sessionId]);
    expect(ids).not.toContain(revoked.sessionId);
    expect(ids).not.toContain(idle.sessionId);
  });
});
