import { PDFDocument } from '@cantoo/pdf-lib';
import type { FillDocumentRequest } from '@svc/contracts';
import { documentStorageKey } from '../../src/domain/documents/document-view';
import { sweepVault } from '../../src/domain/documents/sweep';
import { movableClock, rejection } from '../extractions/support';
import { newClientId, startVaultHarness, type VaultHarness } from '../harness';
import { FakeUploads } from './fake-uploads';

// Fictitious values: they may be in the filled bytes (object storage) and nowhere else.
const EMAIL = 'jane.doe@example.com';
const IBAN = 'DE89 3704 0044 0532 0130 00';
const PHONE = '+49 30 1234567';
const SECRETS = ['jane.doe', 'DE89370400440532013000', '3704', '1234567'];
const BASE_URL = 'https://vault.test';

const uploads = new FakeUploads();
const clock = movableClock();
let h: VaultHarness;

beforeAll(async () => {
  h = await startVaultHarness({ uploads, now: clock.now });
  uploads.store = h.store;
});

afterAll(async () => {
  await h?.close();
});

async function vaultWith(clientId: string) {
  for (const field of [
    { name: 'email', type: 'email', value: EMAIL },
    { name: 'iban', type: 'iban', value: IBAN },
    { name: 'phone', type: 'phone', value: PHONE },
  ] as const) {
    await h.vault.saveField({ client_id: clientId, request_id: 'req-save', field });
  }
}

function fill(clientId: string, request: FillDocumentRequest) {
  return h.vault.fillDocument({
    client_id: clientId,
    request_id: 'req-fill',
    base_url: BASE_URL,
    request,
  });
}

function expectNoSecrets(text: string) {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe('fillDocument', () => {
  test('text template: allowed fields placed, a disallowed one left empty and reported, audit per decryption', async () => {
    const client = newClientId();
    await vaultWith(client);
    const { document } = await fill(client, {
      template: { text: 'Mail {{email}} / IBAN {{ iban }} / Tel {{phone}} / {{nickname}}', format: 'text' },
      fields: ['email', 'iban', 'not_in_vault'],
    });
    expect(document.report).toEqual({
      filled: ['email', 'iban'],
      unknown: ['nickname'],
      not_allowed: ['phone'],
      empty: [],
    });
    expect(document.artifact).toMatchObject({
      name: 'filled.txt',
      content_type: 'text/plain',
      run_id: document.document_id,
    });
    expect(document.artifact.download_url.startsWith(BASE_URL)).toBe(true);
    expect(Date.parse(document.expires_at) - Date.parse(document.created_at)).toBe(24 * 3_600_000);
    expectNoSecrets(JSON.stringify(document));

    const bytes = (await uploads.artifactBytes(document.document_id)).toString('utf8');
    expect(bytes).toBe(`Mail ${EMAIL} / IBAN DE89370400440532013000 / Tel  / `);
    expect(uploads.artifacts.at(-1)?.storage_key).toBe(documentStorageKey(document.document_id));

    // Decrypted: the allowed fields the vault holds — never phone (not allowed).
    const audit = await h.db.prisma.vaultAuditEvent.findMany({
      where: { clientId: client, purpose: 'fill' },
      orderBy: { field: 'asc' },
    });
    expect(audit.map((event) => [event.field, event.subjectId, event.requestId, event.keyVersion])).toEqual([
      ['email', document.document_id, 'req-fill', 1],
      ['iban', document.document_id, 'req-fill', 1],
    ]);
    const row = await h.db.prisma.vaultDocument.findUniqueOrThrow({ where: { id: document.document_id } });
    expectNoSecrets(JSON.stringify(row));
    expectNoSecrets(h.log.text());
  });

  test('an allowed field the template does not ask for is not decrypted; a bad template is refused before any', async () => {
    const client = newClientId();
    await vaultWith(client);
    const { document } = await fill(client, {
      template: { text: 'Mail {{email}}', format: 'markdown' },
      fields: ['email', 'iban', 'phone'],
    });
    expect(document.report).toEqual({ filled: ['email'], unknown: [], not_allowed: [], empty: [] });
    const audit = await h.db.prisma.vaultAuditEvent.findMany({
      where: { clientId: client, purpose: 'fill' },
    });
    expect(audit.map((event) => event.field)).toEqual(['email']);

    const notPdf = await uploads.add(client, 'form.pdf', 'application/pdf', Buffer.from('%PDF-1.7 broken'));
    const refused = await rejection(fill(client, { template: { upload_id: notPdf }, fields: ['email'] }));
    expect(refused.status).toBe(422);
    expect(await h.db.prisma.vaultAuditEvent.count({ where: { clientId: client, purpose: 'fill' } })).toBe(1);
    expect(await h.db.prisma.vaultDocument.count({ where: { clientId: client } })).toBe(1);
  });

  test('HTML template: values escaped; the filename of the request names the artifact', async () => {
    const client = newClientId();
    await h.vault.saveField({
      client_id: client,
      request_id: 'r',
      field: { name: 'company', type: 'company', value: 'Doe & <Sons>' },
    });
    const { document } = await fill(client, {
      template: { text: '<p>{{company}}</p>', format: 'html' },
      fields: ['company'],
      filename: 'Letter to bank.html',
    });
    expect(document.artifact.name).toBe('Letter to bank.html');
    expect((await uploads.artifactBytes(document.document_id)).toString('utf8')).toBe(
      '<p>Doe &amp; &lt;Sons&gt;</p>',
    );
  });

  test('PDF form upload: its fields filled, the default name derived from the upload', async () => {
    const client = newClientId();
    await vaultWith(client);
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([595, 842]);
    const form = pdf.getForm();
    for (const [index, name] of ['email', 'phone'].entries()) {
      form.createTextField(name).addToPage(page, { x: 50, y: 700 - index * 40, width: 300, height: 24 });
    }
    const uploadId = await uploads.add(client, 'form.pdf', 'application/pdf', await pdf.save());
    const { document } = await fill(client, { template: { upload_id: uploadId }, fields: ['email'] });
    expect(document.report).toEqual({ filled: ['email'], unknown: [], not_allowed: ['phone'], empty: [] });
    expect(document.artifact).toMatchObject({ name: 'filled-form.pdf', content_type: 'application/pdf' });
    expect((await uploads.artifactBytes(document.document_id)).subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('another client fills from its own (empty) vault only; cannot use the owner’s upload', async () => {
    const owner = newClientId();
    await vaultWith(owner);
    const other = newClientId();
    const { document } = await fill(other, {
      template: { text: '{{email}}', format: 'text' },
      fields: ['email'],
    });
    expect(document.report).toEqual({ filled: [], unknown: ['email'], not_allowed: [], empty: [] });
    expect((await uploads.artifactBytes(document.document_id)).toString()).toBe('');
    const upload = await uploads.add(owner, 't.txt', 'text/plain', Buffer.from('{{email}}'));
    expect(
      (await rejection(fill(other, { template: { upload_id: upload }, fields: ['email'] }))).status,
    ).toBe(404);
  });

  test('registration fails: the document and its object are discarded, nothing is listed', async () => {
    const client = newClientId();
    await vaultWith(client);
    uploads.failRegister = true;
    await expect(
      fill(client, { template: { text: '{{email}}', format: 'text' }, fields: ['email'] }),
    ).rejects.toBeDefined();
    expect(await h.db.prisma.vaultDocument.count({ where: { clientId: client } })).toBe(0);
    const attempted = uploads.registerAttempts.at(-1) ?? '';
    expect(await h.store.stat(documentStorageKey(attempted))).toBeNull();
    expect((await h.vault.listDocuments({ client_id: client, base_url: BASE_URL })).count).toBe(0);
  });
});

describe('documents', () => {
  test('list and get with fresh links, owner only; the sweep deletes them past retention', async () => {
    const client = newClientId();
    await vaultWith(client);
    const first = (
      await fill(client, { template: { text: 'a {{email}}', format: 'text' }, fields: ['email'] })
    ).document;
    const second = (
      await fill(client, { template: { text: 'b {{iban}}', format: 'markdown' }, fields: ['iban'] })
    ).document;
    const listed = await h.vault.listDocuments({ client_id: client, base_url: BASE_URL });
    expect(listed.documents.map((document) => document.document_id)).toEqual([
      second.document_id,
      first.document_id,
    ]);
    expect(listed.documents[0]?.artifact.name).toBe('filled.md');
    const got = await h.vault.getDocument({
      client_id: client,
      base_url: BASE_URL,
      document_id: first.document_id,
    });
    expect(got.document.report).toEqual(first.report);
    expectNoSecrets(JSON.stringify(listed));

    const other = newClientId();
    expect((await h.vault.listDocuments({ client_id: other, base_url: BASE_URL })).count).toBe(0);
    const foreign = await rejection(
      h.vault.getDocument({ client_id: other, base_url: BASE_URL, document_id: first.document_id }),
    );
    expect(foreign.status).toBe(404);

    clock.advance(24 * 3_600_000 + 1_000);
    try {
      // Past retention: not shown even before the sweep.
      expect((await h.vault.listDocuments({ client_id: client, base_url: BASE_URL })).count).toBe(0);
      const swept = await sweepVault(h.deps);
      expect(swept.deleted_documents).toBeGreaterThanOrEqual(2);
      expect(await h.db.prisma.vaultDocument.count({ where: { clientId: client } })).toBe(0);
      expect(await h.store.stat(documentStorageKey(first.document_id))).toBeNull();
      expect(await h.store.stat(documentStorageKey(second.document_id))).toBeNull();
      const gone = await rejection(
        h.vault.getDocument({
          client_id: client,
          base_url: BASE_URL,
          document_id: first.document_id,
        }),
      );
      expect(gone.status).toBe(404);
    } finally {
      clock.advance(-(24 * 3_600_000 + 1_000));
    }
  });
});
