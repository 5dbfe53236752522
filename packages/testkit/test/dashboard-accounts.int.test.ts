import { AccountStore } from '@svc/auth/accounts';
import { createTestAccount, createTestDatabase, type TestDatabase } from '../src';

// createTestAccount against a fresh, migrated database (real PostgreSQL), by client id and by name,
// through a database client and through a URL (what a stack offers).

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('testkit_accounts');
});

afterAll(() => database?.drop());

describe('createTestAccount', () => {
  it('makes an account of an existing client whose password signs in', async () => {
    const client = await database.prisma.client.create({ data: { name: 'acme' } });
    const account = await createTestAccount(database, { clientId: client.id, role: 'developer' });
    expect(account.clientId).toBe(client.id);
    expect(account.email).toMatch(/^developer-[0-9a-f]{10}@test\.example$/);
    const signedIn = await new AccountStore(database.prisma).verifyPassword(account.email, account.password);
    expect(signedIn).toMatchObject({ id: account.accountId, role: 'developer', clientId: client.id });
  });

  it('by client name (made when new, reused when not), with a given email and password, via a URL', async () => {
    const first = await createTestAccount(
      { databaseUrl: database.url },
      { clientName: 'by-name', role: 'viewer', email: 'Viewer@Example.com', password: 'a chosen password' },
    );
    expect(first.email).toBe('viewer@example.com');
    expect(first.password).toBe('a chosen password');
    const second = await createTestAccount(
      { databaseUrl: database.url },
      { clientName: 'by-name', role: 'owner' },
    );
    expect(second.clientId).toBe(first.clientId);
    expect(await database.prisma.client.count({ where: { name: 'by-name' } })).toBe(1);
    expect(
      await new AccountStore(database.prisma).verifyPassword(first.email, 'a chosen password'),
    ).not.toBeNull();
  });
});
