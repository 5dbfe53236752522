import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AccountStore, SessionStore } from '@svc/auth/accounts';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';
import { devAccountLines, readyLines } from '../src/banner';
import { DEV_ACCOUNT_EMAIL, devAccountPath, ensureDevAccount, readDevAccount } from '../src/dev-account';
import { devKeyPath, ensureDevKey } from '../src/dev-key';

// The launcher's development dashboard account against a fresh, migrated database (real PostgreSQL).

let database: TestDatabase;
let dataDir: string;
let accounts: AccountStore;
const GATEWAY = 'http://localhost:3000';

beforeAll(async () => {
  database = await createTestDatabase('launcher_dev_account');
  accounts = new AccountStore(database.prisma);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-account-'));
});

afterAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  await database?.drop();
});

describe('ensureDevAccount', () => {
  let clientId: string;
  let password: string;
  const file = () => devAccountPath(dataDir);

  it('makes dev@localhost, owner of the dev key client, saves it 0600 and prints the password once', async () => {
    clientId = (await ensureDevKey(database.prisma, devKeyPath(dataDir))).key.client_id;
    const result = await ensureDevAccount(database.prisma, file(), clientId);
    expect(result.status).toBe('created');
    password = result.account.password;
    expect(readDevAccount(file())).toEqual(result.account);
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    const account = await accounts.verifyPassword(DEV_ACCOUNT_EMAIL, password);
    // The dev key's client (its name is the gateway's: no join from the dashboard's schema).
    expect(account).toMatchObject({
      clientId,
      role: 'owner',
      email: 'dev@localhost',
    });

    const lines = devAccountLines(result, 'data/dev-account.json', GATEWAY).join('\n');
    expect(lines).toContain(`${GATEWAY}/dashboard/sign-in`);
    expect(lines).toContain(password);
    expect(lines).toContain('dev@localhost');
  });

  it('a second start reuses the saved password and does not print it', async () => {
    const again = await ensureDevAccount(database.prisma, file(), clientId);
    expect(again).toEqual({ status: 'existing', account: expect.objectContaining({ password }) });
    const lines = devAccountLines(again, 'data/dev-account.json', GATEWAY).join('\n');
    expect(lines).not.toContain(password);
    expect(lines).toContain('data/dev-account.json');
    const banner = readyLines({
      gatewayUrl: GATEWAY,
      keyFile: 'k',
      accountFile: 'data/dev-account.json',
      notes: [],
    });
    expect(banner.join('\n')).toContain(
      `Dashboard: ${GATEWAY}/dashboard/sign-in (dev@localhost, password in data/dev-account.json)`,
    );
  });

  it('a saved password that no longer signs in is replaced, and the old sessions end', async () => {
    const sessions = new SessionStore(database.prisma, { maxAgeMs: 3_600_000, idleMs: 3_600_000 });
    const session = await sessions.start({ accountId: readDevAccount(file())?.account_id ?? '' });
    await accounts.setPassword(DEV_ACCOUNT_EMAIL, 'changed by an operator');
    const result = await ensureDevAccount(database.prisma, file(), clientId);
    expect(result.status).toBe('reset');
    expect(result.account.password).not.toBe(password);
    expect(await accounts.verifyPassword(DEV_ACCOUNT_EMAIL, result.account.password)).not.toBeNull();
    expect(readDevAccount(file())?.password).toBe(result.account.password);
    expect(await sessions.lookup(session.token)).toBeNull();
    expect(await database.prisma.dashboardAccount.count({ where: { email: DEV_ACCOUNT_EMAIL } })).toBe(1);
  });

  it('a lost file: the existing account gets a new password (no second account)', async () => {
    fs.rmSync(file());
    const result = await ensureDevAccount(database.prisma, file(), clientId);
    expect(result.status).toBe('reset');
    expect(await accounts.verifyPassword(DEV_ACCOUNT_EMAIL, result.account.password)).not.toBeNull();
    expect(await database.prisma.dashboardAccount.count({ where: { email: DEV_ACCOUNT_EMAIL } })).toBe(1);
  });
});
