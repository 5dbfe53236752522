import { randomBytes } from 'node:crypto';
import { createMigratedDatabase, createPrismaClient, dropDatabase, type PrismaClient } from '@svc/db';
import { formatApiKey, generateApiKey, parseApiKey } from '../src/api-key-format';
import { ApiKeyStore } from '../src/api-key-store';
import { decodeBase62 } from '../src/base62';
import { UnknownScopeError } from '../src/scopes';

// Real PostgreSQL: a fresh, migrated database per run of this suite, dropped afterwards.
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE_URL = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/auth_store_${randomBytes(6).toString('hex')}`;
  return url.toString();
})();

let prisma: PrismaClient;
let store: ApiKeyStore;

beforeAll(async () => {
  await createMigratedDatabase(DATABASE_URL);
  prisma = createPrismaClient(DATABASE_URL);
  store = new ApiKeyStore(prisma);
});

afterAll(async () => {
  await prisma?.$disconnect();
  await dropDatabase(DATABASE_URL);
});

/** A key with the same key id whose secret differs, checksum recomputed so it parses. */
function tamperedSecret(apiKey: string): string {
  const parsed = parseApiKey(apiKey);
  if (parsed === null) throw new Error('test key does not parse');
  const last = parsed.secret.at(-1) === 'a' ? 'b' : 'a';
  return formatApiKey(parsed.keyId, parsed.secret.slice(0, -1) + last);
}

describe('ApiKeyStore', () => {
  it('creates a client and a key that verifies', async () => {
    const created = await store.create({
      clientName: 'acme',
      scopes: ['capabilities:read', 'capabilities:run'],
      label: 'ci',
    });
    expect(parseApiKey(created.apiKey)?.keyId).toBe(created.keyId);

    const identity = await store.verify(created.apiKey);
    expect(identity).toEqual({
      clientId: created.clientId,
      clientName: 'acme',
      keyId: created.keyId,
      scopes: ['capabilities:read', 'capabilities:run'],
      // The operator's rate-limit overrides, read with the client row (none yet).
      rateLimits: {},
    });
    const client = await prisma.client.findUniqueOrThrow({ where: { name: 'acme' } });
    expect(client.id).toBe(created.clientId);
  });

  it('reuses the client of an existing name', async () => {
    const first = await store.create({ clientName: 'reuse', scopes: ['billing:read'] });
    const second = await store.create({ clientName: '  reuse ', scopes: ['billing:read'] });
    expect(second.clientId).toBe(first.clientId);
    expect(second.keyId).not.toBe(first.keyId);
    expect(await prisma.client.count({ where: { name: 'reuse' } })).toBe(1);
  });

  it('rejects unknown scopes and empty scope lists without writing anything', async () => {
    await expect(store.create({ clientName: 'bad-scope', scopes: ['root'] })).rejects.toBeInstanceOf(
      UnknownScopeError,
    );
    await expect(store.create({ clientName: 'bad-scope', scopes: [] })).rejects.toThrow('at least one scope');
    expect(await prisma.client.count({ where: { name: 'bad-scope' } })).toBe(0);
  });

  it('rolls back client and key when the in-transaction hook fails', async () => {
    const failing = store.create(
      { clientName: 'rollback', scopes: ['billing:read'] },
      {
        withinTransaction: async (tx, created) => {
          await tx.walletAccount.create({ data: { clientId: created.clientId } });
          throw new Error('hook failed');
        },
      },
    );
    await expect(failing).rejects.toThrow('hook failed');
    expect(await prisma.client.count({ where: { name: 'rollback' } })).toBe(0);
    expect(await prisma.walletAccount.count()).toBe(0);
  });

  it('returns null for a tampered secret, an unknown key id and garbage', async () => {
    const created = await store.create({ clientName: 'tamper', scopes: ['billing:read'] });
    const tampered = tamperedSecret(created.apiKey);
    expect(parseApiKey(tampered)).not.toBeNull();
    expect(await store.verify(tampered)).toBeNull();

    const unknownId = generateApiKey().apiKey;
    expect(await store.verify(unknownId)).toBeNull();

    // Right secret, other (existing) key id: the secret is bound to its own key id.
    const other = await store.create({ clientName: 'tamper', scopes: ['billing:read'] });
    const swapped = formatApiKey(other.keyId, parseApiKey(created.apiKey)?.secret ?? '');
    expect(await store.verify(swapped)).toBeNull();

    expect(await store.verify('')).toBeNull();
    expect(await store.verify(`${created.apiKey}x`)).toBeNull();
    expect(await store.verify(created.apiKey)).not.toBeNull();
  });

  it('revokes: a revoked key no longer verifies, a second revoke reports false', async () => {
    const created = await store.create({ clientName: 'revoker', scopes: ['billing:read'] });
    expect(await store.verify(created.apiKey)).not.toBeNull();
    expect(await store.revoke(created.keyId)).toBe(true);
    expect(await store.verify(created.apiKey)).toBeNull();
    expect(await store.revoke(created.keyId)).toBe(false);
    expect(await store.revoke('zzzzzzzzzzzz')).toBe(false);
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { keyId: created.keyId } });
    expect(row.revokedAt).toBeInstanceOf(Date);
  });

  it('lists keys without secrets, optionally by client', async () => {
    const a = await store.create({ clientName: 'list-a', scopes: ['vault:read'], label: 'first' });
    await store.revoke(a.keyId);
    const b = await store.create({ clientName: 'list-b', scopes: ['vault:write', 'vault:fill'] });

    const onlyA = await store.list({ clientName: 'list-a' });
    expect(onlyA).toEqual([
      {
        clientId: a.clientId,
        clientName: 'list-a',
        keyId: a.keyId,
        scopes: ['vault:read'],
        label: 'first',
        createdAt: expect.any(Date),
        lastUsedAt: null,
        revokedAt: expect.any(Date),
        expiresAt: null,
      },
    ]);
    const all = await store.list();
    expect(all.map((row) => row.keyId)).toEqual(expect.arrayContaining([a.keyId, b.keyId]));
    expect(await store.list({ clientName: 'nobody' })).toEqual([]);
    const text = JSON.stringify(all);
    expect(text).not.toContain(parseApiKey(b.apiKey)?.secret);
    expect(text).not.toMatch(/secret|hash/i);
  });

  it('writes last_used_at at most once per minute', async () => {
    let now = new Date('2030-01-01T00:00:00.000Z');
    const clocked = new ApiKeyStore(prisma, { now: () => now });
    const created = await clocked.create({ clientName: 'clock', scopes: ['billing:read'] });
    const lastUsed = async () =>
      (await prisma.apiKey.findUniqueOrThrow({ where: { keyId: created.keyId } })).lastUsedAt?.toISOString();

    expect(await lastUsed()).toBeUndefined();
    await clocked.verify(created.apiKey);
    expect(await lastUsed()).toBe('2030-01-01T00:00:00.000Z');

    now = new Date('2030-01-01T00:00:59.000Z');
    await clocked.verify(created.apiKey);
    expect(await lastUsed()).toBe('2030-01-01T00:00:00.000Z');

    now = new Date('2030-01-01T00:01:00.000Z');
    await clocked.verify(created.apiKey);
    expect(await lastUsed()).toBe('2030-01-01T00:01:00.000Z');

    // A failed verification is not a use.
    now = new Date('2030-01-01T00:05:00.000Z');
    await clocked.verify(tamperedSecret(created.apiKey));
    expect(await lastUsed()).toBe('2030-01-01T00:01:00.000Z');
  });

  it('lookup writes nothing; recordUse writes several keys in one statement, once per minute each', async () => {
    let now = new Date('2031-01-01T00:00:00.000Z');
    const clocked = new ApiKeyStore(prisma, { now: () => now });
    const a = await clocked.create({ clientName: 'batch', scopes: ['billing:read'] });
    const b = await clocked.create({ clientName: 'batch', scopes: ['billing:read'] });
    const lastUsed = async (keyId: string) =>
      (await prisma.apiKey.findUniqueOrThrow({ where: { keyId } })).lastUsedAt?.toISOString();

    const foundA = await clocked.lookup(a.apiKey);
    const foundB = await clocked.lookup(b.apiKey);
    expect(foundA?.identity.keyId).toBe(a.keyId);
    expect(await clocked.lookup(tamperedSecret(a.apiKey))).toBeNull();
    expect(await lastUsed(a.keyId)).toBeUndefined();

    await clocked.recordUse([foundA?.id ?? '', foundB?.id ?? '']);
    expect([await lastUsed(a.keyId), await lastUsed(b.keyId)]).toEqual([
      '2031-01-01T00:00:00.000Z',
      '2031-01-01T00:00:00.000Z',
    ]);
    now = new Date('2031-01-01T00:00:30.000Z');
    await clocked.recordUse([foundA?.id ?? '']); // within the minute (another replica, say): no write
    expect(await lastUsed(a.keyId)).toBe('2031-01-01T00:00:00.000Z');
    now = new Date('2031-01-01T00:01:00.000Z');
    await clocked.recordUse([foundA?.id ?? '']);
    expect([await lastUsed(a.keyId), await lastUsed(b.keyId)]).toEqual([
      '2031-01-01T00:01:00.000Z',
      '2031-01-01T00:00:00.000Z',
    ]);
  });

  it('an expiring key verifies until its expiry, then never again; lookup carries the expiry', async () => {
    let now = new Date('2032-01-01T00:00:00.000Z');
    const clocked = new ApiKeyStore(prisma, { now: () => now });
    const expiresAt = new Date('2032-01-02T00:00:00.000Z');
    const created = await clocked.create({ clientName: 'expiring', scopes: ['billing:read'], expiresAt });
    expect((await clocked.lookup(created.apiKey))?.expiresAt).toEqual(expiresAt);
    now = new Date(expiresAt.getTime() - 1);
    expect(await clocked.verify(created.apiKey)).not.toBeNull();
    now = expiresAt;
    expect(await clocked.verify(created.apiKey)).toBeNull();
    expect(await clocked.lookup(created.apiKey)).toBeNull();
    const listed = await clocked.list({ clientName: 'expiring' });
    expect(listed.map((key) => key.expiresAt)).toEqual([expiresAt]);
    // A key without an expiry says so.
    const forever = await clocked.create({ clientName: 'expiring', scopes: ['billing:read'] });
    expect((await clocked.lookup(forever.apiKey))?.expiresAt).toBeNull();
    // A key cannot be born expired.
    await expect(
      clocked.create({
        clientName: 'expiring',
        scopes: ['billing:read'],
        expiresAt: new Date(now.getTime()),
      }),
    ).rejects.toThrow('in the future');
  });

  it('per client: createForClient, listForClient (newest first) and revokeForClient refuse other clients', async () => {
    const mine = await store.create({ clientName: 'per-client-a', scopes: ['capabilities:read'] });
    const theirs = await store.create({ clientName: 'per-client-b', scopes: ['capabilities:read'] });
    const expiresAt = new Date(Date.now() + 86_400_000);
    const second = await store.createForClient({
      clientId: mine.clientId,
      scopes: ['capabilities:run', 'capabilities:read'],
      label: ' dashboard ',
      expiresAt,
    });
    expect(second.clientId).toBe(mine.clientId);
    expect((await store.verify(second.apiKey))?.clientName).toBe('per-client-a');

    const listed = await store.listForClient(mine.clientId);
    expect(listed.map((key) => key.keyId)).toEqual([second.keyId, mine.keyId]);
    expect(listed[0]).toMatchObject({
      label: 'dashboard',
      scopes: ['capabilities:run', 'capabilities:read'],
      expiresAt,
    });
    expect(JSON.stringify(listed)).not.toContain(second.apiKey);

    // Another client's key, an unknown key: false, and nothing changes.
    expect(await store.revokeForClient(mine.clientId, theirs.keyId)).toBe(false);
    expect(await store.verify(theirs.apiKey)).not.toBeNull();
    expect(await store.revokeForClient(mine.clientId, 'nosuchkey')).toBe(false);
    expect(await store.revokeForClient(mine.clientId, second.keyId)).toBe(true);
    expect(await store.revokeForClient(mine.clientId, second.keyId)).toBe(false);
    expect(await store.verify(second.apiKey)).toBeNull();
    expect((await store.listForClient(mine.clientId))[0]?.revokedAt).not.toBeNull();

    await expect(
      store.createForClient({ clientId: mine.clientId, scopes: ['root'], label: null, expiresAt: null }),
    ).rejects.toBeInstanceOf(UnknownScopeError);
    await expect(
      store.createForClient({ clientId: '00000000-0000-4000-8000-000000000000', scopes: ['billing:read'] }),
    ).rejects.toThrow('unknown client');
  });

  it('never stores the secret: no text or bytea column of auth.* contains it', async () => {
    const created = await store.create({ clientName: 'leak-check', scopes: ['billing:read'], label: 'x' });
    const secret = parseApiKey(created.apiKey)?.secret ?? '';
    const secretValue = decodeBase62(secret) ?? 0n;
    const needles = {
      text: [secret, created.apiKey],
      hex: [
        Buffer.from(secret, 'utf8').toString('hex'),
        secretValue.toString(16).padStart(64, '0'), // the 32 raw secret bytes
      ],
    };

    const columns = await prisma.$queryRaw<
      Array<{ table_name: string; column_name: string; data_type: string }>
    >`
      SELECT table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema = 'auth' ORDER BY table_name, column_name`;
    const searched: string[] = [];
    for (const { table_name: table, column_name: column, data_type: type } of columns) {
      if (type !== 'text' && type !== 'character varying' && type !== 'ARRAY' && type !== 'bytea') continue;
      searched.push(`${table}.${column}`);
      const expression = type === 'bytea' ? `encode("${column}", 'hex')` : `"${column}"::text`;
      const rows = await prisma.$queryRawUnsafe<Array<{ value: string | null }>>(
        `SELECT ${expression} AS value FROM auth."${table}"`,
      );
      const haystack = rows.map((row) => row.value ?? '').join('\n');
      for (const needle of type === 'bytea' ? needles.hex : needles.text) {
        expect({ column: `${table}.${column}`, found: haystack.includes(needle) }).toEqual({
          column: `${table}.${column}`,
          found: false,
        });
      }
    }
    // The search really covered the key table (so this test can fail).
    expect(searched).toEqual(
      expect.arrayContaining(['api_keys.secret_hash', 'api_keys.key_id', 'api_keys.label', 'clients.name']),
    );
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { keyId: created.keyId } });
    expect(row.secretHash).toHaveLength(32);
  });
});
