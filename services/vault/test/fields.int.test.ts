import { isAppErrorLike } from './errors';
import { newClientId, startVaultHarness, type VaultHarness } from './harness';

// Fictitious values (published test IBAN, example.com): they must never appear in a reply, error or log.
const EMAIL = 'jane.doe@example.com';
const EMAIL_2 = 'jane.smith@example.com';
const IBAN = 'DE89 3704 0044 0532 0130 00';

let h: VaultHarness;

beforeAll(async () => {
  h = await startVaultHarness();
});

afterAll(async () => {
  await h?.close();
});

async function rejection(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (isAppErrorLike(err)) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error('expected a rejection');
}

function save(
  clientId: string,
  field: { name: string; type: 'email' | 'iban' | 'given_name'; value: string; expected_version?: number },
) {
  return h.vault.saveField({ client_id: clientId, request_id: 'req-test', field });
}

describe('fields', () => {
  test('create, list masked, update at the version, stale update 409, delete shreds the row', async () => {
    const client = newClientId();
    const created = await save(client, { name: 'email', type: 'email', value: EMAIL });
    expect(created.outcome).toBe('created');
    expect(created.field).toMatchObject({
      name: 'email',
      type: 'email',
      version: 1,
      key_version: 1,
      source: { kind: 'entered' },
      masked_value: 'j***@example.com',
    });

    // A second create of the same name is 409 naming the version to send.
    const again = await rejection(save(client, { name: 'email', type: 'email', value: EMAIL_2 }));
    expect(again.status).toBe(409);
    expect(again.message).toContain('version 1');

    const updated = await save(client, { name: 'email', type: 'email', value: EMAIL_2, expected_version: 1 });
    expect(updated.outcome).toBe('updated');
    expect(updated.field.version).toBe(2);
    expect(updated.field.created_at).toBe(created.field.created_at);

    const stale = await rejection(
      save(client, { name: 'email', type: 'email', value: EMAIL, expected_version: 1 }),
    );
    expect(stale.status).toBe(409);
    expect(stale.message).toContain('version 2');

    const missing = await rejection(
      save(client, { name: 'nothing_here', type: 'email', value: EMAIL, expected_version: 1 }),
    );
    expect(missing.status).toBe(404);

    await save(client, { name: 'iban', type: 'iban', value: IBAN });
    const list = await h.vault.listFields({ client_id: client });
    expect(list.fields.map((field) => field.name)).toEqual(['email', 'iban']);
    expect(list.fields[1]?.masked_value).toBe('DE89 **** **** **** **30 00');
    const text = JSON.stringify(list);
    expect(text).not.toContain('jane.smith');
    expect(text).not.toContain('370400440532013000');

    // The stored row holds no plaintext: ciphertext only, bound to the client and the name.
    const row = await h.db.prisma.vaultField.findUniqueOrThrow({
      where: { clientId_name: { clientId: client, name: 'iban' } },
    });
    expect(Buffer.from(row.ciphertext).toString('latin1')).not.toContain('DE89370400440532013000');

    const staleDelete = await rejection(
      h.vault.deleteField({
        client_id: client,
        request_id: 'req-test',
        name: 'email',
        expected_version: 1,
      }),
    );
    expect(staleDelete.status).toBe(409);
    const deleted = await h.vault.deleteField({
      client_id: client,
      request_id: 'req-test',
      name: 'email',
      expected_version: 2,
    });
    expect(deleted.deleted).toEqual({ name: 'email', version: 2 });
    // Crypto-shredding: the row with its wrapped data key and ciphertext is gone.
    const left = await h.db.prisma.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM vault.fields WHERE client_id = ${client}::uuid AND name = 'email'`;
    expect(Number(left[0]?.n)).toBe(0);
    const again404 = await rejection(
      h.vault.deleteField({ client_id: client, request_id: 'req-test', name: 'email' }),
    );
    expect(again404.status).toBe(404);
  });

  test('a 422 names the field and the rule, never the value', async () => {
    const client = newClientId();
    const bad = 'DE00 3704 0044 0532 0130 00';
    const refused = await rejection(save(client, { name: 'iban', type: 'iban', value: bad }));
    expect(refused.status).toBe(422);
    expect(refused.message).toContain('field "iban"');
    expect(refused.message).not.toContain('3704');
    const badEmail = await rejection(
      save(client, { name: 'email', type: 'email', value: 'not-an-email-secret-xyz' }),
    );
    expect(badEmail.status).toBe(422);
    expect(badEmail.message).not.toContain('secret-xyz');
  });

  test('two concurrent creates of one name: one created, one 409', async () => {
    const client = newClientId();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        save(client, { name: 'given_name', type: 'given_name', value: `Jane${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failures).toHaveLength(5);
    for (const failure of failures) expect(isAppErrorLike(failure.reason) && failure.reason.status).toBe(409);
  });

  test('two concurrent updates from one version: one wins, the other 409', async () => {
    const client = newClientId();
    await save(client, { name: 'email', type: 'email', value: EMAIL });
    const results = await Promise.allSettled(
      [EMAIL, EMAIL_2, EMAIL, EMAIL_2].map((value) =>
        save(client, { name: 'email', type: 'email', value, expected_version: 1 }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const row = await h.db.prisma.vaultField.findUniqueOrThrow({
      where: { clientId_name: { clientId: client, name: 'email' } },
    });
    expect(row.version).toBe(2);
  });

  test('another client sees, updates and deletes nothing of it', async () => {
    const owner = newClientId();
    const other = newClientId();
    await save(owner, { name: 'email', type: 'email', value: EMAIL });
    expect((await h.vault.listFields({ client_id: other })).fields).toEqual([]);
    expect(
      (await rejection(save(other, { name: 'email', type: 'email', value: EMAIL_2, expected_version: 1 })))
        .status,
    ).toBe(404);
    expect(
      (await rejection(h.vault.deleteField({ client_id: other, request_id: 'r', name: 'email' }))).status,
    ).toBe(404);
    // The same name is free for the other client: vaults are per client.
    expect((await save(other, { name: 'email', type: 'email', value: EMAIL_2 })).outcome).toBe('created');
    expect((await h.vault.listFields({ client_id: owner })).fields[0]?.version).toBe(1);
  });

  test('the field limit per client is a 409', async () => {
    const small = await startVaultHarness({ settings: { maxFieldsPerClient: 2 } });
    try {
      const client = newClientId();
      const call = (name: string) =>
        small.vault.saveField({
          client_id: client,
          request_id: 'r',
          field: { name, type: 'given_name', value: 'Jane' },
        });
      await call('a');
      await call('b');
      const full = await rejection(call('c'));
      expect(full.status).toBe(409);
      expect(full.message).toContain('maximum of 2 fields');
      // Updating stays possible at the limit.
      await small.vault.saveField({
        client_id: client,
        request_id: 'r',
        field: { name: 'a', type: 'given_name', value: 'June', expected_version: 1 },
      });
    } finally {
      await small.close();
    }
  });

  test('no value in any log line', () => {
    const text = h.log.text();
    for (const secret of ['jane.doe', 'jane.smith', '0532', 'secret-xyz', 'Jane0', 'June']) {
      expect(text).not.toContain(secret);
    }
  });
});
