import { randomUUID } from 'node:crypto';
import { recordDecryption } from '../src/domain/audit';
import { newClientId, startVaultHarness, type VaultHarness } from './harness';

let h: VaultHarness;

beforeAll(async () => {
  h = await startVaultHarness();
});

afterAll(async () => {
  await h?.close();
});

function save(clientId: string, name: string, type: 'email' | 'given_name' | 'country', value: string) {
  return h.vault.saveField({ client_id: clientId, request_id: 'r', field: { name, type, value } });
}

async function extraction(clientId: string, status: string, expiresInMs: number): Promise<void> {
  await h.db.prisma.vaultExtraction.create({
    data: {
      clientId,
      status,
      documentKind: 'text',
      contentType: 'text/plain',
      pages: 1,
      characters: 10,
      expiresAt: new Date(Date.now() + expiresInMs),
    },
  });
}

describe('profile', () => {
  test('an empty vault', async () => {
    const { profile } = await h.vault.profile({ client_id: newClientId() });
    expect(profile).toMatchObject({
      fields_total: 0,
      by_type: {},
      pending_extractions: 0,
      key_version: 1,
      fields_on_older_keys: 0,
    });
    expect(profile.last_changed_at).toBeUndefined();
    expect(profile.common_fields.every((field) => !field.present)).toBe(true);
  });

  test('counts, common fields, pending extractions, last change, older keys', async () => {
    const client = newClientId();
    await save(client, 'email', 'email', 'jane.doe@example.com');
    await save(client, 'work_email', 'email', 'jane@work.example.com');
    await save(client, 'given_name', 'given_name', 'Jane');
    const last = await save(client, 'country', 'country', 'DE');
    await extraction(client, 'pending', 60_000);
    await extraction(client, 'pending', -60_000); // past its time: not pending any more
    await extraction(client, 'reviewed', 60_000);
    await extraction(newClientId(), 'pending', 60_000); // another client's

    const { profile } = await h.vault.profile({ client_id: client });
    expect(profile.fields_total).toBe(4);
    expect(profile.by_type).toEqual({ email: 2, given_name: 1, country: 1 });
    expect(
      profile.common_fields
        .filter((field) => field.present)
        .map((field) => field.name)
        .sort(),
    ).toEqual(['country', 'email', 'given_name']);
    expect(profile.common_fields.find((field) => field.name === 'iban')).toEqual({
      name: 'iban',
      type: 'iban',
      present: false,
    });
    expect(profile.pending_extractions).toBe(1);
    expect(profile.last_changed_at).toBe(last.field.updated_at);
    expect(profile.key_version).toBe(1);
    expect(profile.fields_on_older_keys).toBe(0);
    expect(JSON.stringify(profile)).not.toContain('jane');

    // A delete is a change too, though no row is left to date it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await h.vault.deleteField({ client_id: client, request_id: 'r', name: 'work_email' });
    const after = (await h.vault.profile({ client_id: client })).profile;
    expect(after.fields_total).toBe(3);
    expect(after.by_type).toEqual({ email: 1, given_name: 1, country: 1 });
    expect(Date.parse(after.last_changed_at ?? '')).toBeGreaterThan(Date.parse(last.field.updated_at));
  });
});

describe('audit', () => {
  test('newest first, paged by cursor, per client', async () => {
    const client = newClientId();
    const subject = randomUUID();
    for (let i = 0; i < 5; i += 1) {
      await recordDecryption(h.db.prisma, {
        clientId: client,
        purpose: i % 2 === 0 ? 'fill' : 'approve',
        field: `field_${i}`,
        keyVersion: 1,
        subjectId: subject,
        requestId: `req-${i}`,
      });
    }
    await recordDecryption(h.db.prisma, {
      clientId: newClientId(),
      purpose: 'fill',
      field: 'other',
      keyVersion: 1,
      subjectId: subject,
      requestId: 'req-other',
    });

    const first = await h.vault.audit({ client_id: client, query: { limit: 2 } });
    expect(first.count).toBe(2);
    expect(first.events.map((event) => event.field)).toEqual(['field_4', 'field_3']);
    expect(first.events[0]).toMatchObject({
      purpose: 'fill',
      key_version: 1,
      subject_id: subject,
      request_id: 'req-4',
    });
    expect(first.next_cursor).toBe(first.events[1]?.event_id);

    const second = await h.vault.audit({
      client_id: client,
      query: { limit: 2, cursor: first.next_cursor },
    });
    expect(second.events.map((event) => event.field)).toEqual(['field_2', 'field_1']);
    const third = await h.vault.audit({
      client_id: client,
      query: { limit: 2, cursor: second.next_cursor },
    });
    expect(third.events.map((event) => event.field)).toEqual(['field_0']);
    expect(third.next_cursor).toBeUndefined();

    // An exact last page has no next cursor either; a huge cursor is just "from the newest".
    const exact = await h.vault.audit({ client_id: client, query: { limit: 5 } });
    expect(exact.count).toBe(5);
    expect(exact.next_cursor).toBeUndefined();
    const huge = await h.vault.audit({
      client_id: client,
      query: { limit: 1, cursor: '9999999999999999999' },
    });
    expect(huge.events[0]?.field).toBe('field_4');

    expect((await h.vault.audit({ client_id: newClientId(), query: { limit: 10 } })).events).toEqual([]);
  });
});
