import { randomUUID } from 'node:crypto';
import { rpcCatalog, type VaultExtraction, type VaultFieldType } from '@svc/contracts';
import { type Browser, signIn } from './form-browser';
import { CLIENT_ID, OTHER_CLIENT_ID } from './memory-stores';
import { type DashboardHarness, startDashboardHarness } from './support';

/**
 * The vault pages through the app factory over the vault's and the uploads service's real handlers
 * (support.ts): masked fields, save and delete with versions, the extraction review, filling a
 * template uploaded as multipart, the document download and the audit trail. Owner only; another
 * client's extraction is the 404 page.
 */

// A value no answer or log line may contain (20 characters: masked as "M*** (20 chars)").
const MARKER = 'MARKER-4f1d9c-secret';
/** A document with two email addresses: the vault finds two candidates in it. */
const TWO_EMAILS = 'Work: jana.work@example.com. Home: jana.home@example.org.';

function errorStatus(html: string): string | undefined {
  return /data-testid="error" data-status="(\d+)"/.exec(html)?.[1];
}

describe('dashboard vault pages (server side)', () => {
  let harness: DashboardHarness;
  let owner: Browser;
  let developer: Browser;
  let viewer: Browser;

  const vault = () => harness.platform.client('vault');
  /** Every call the vault got since the test began, as { method, request }. */
  const vaultCalls = () =>
    harness.platform.rpc.calls('vault').map(({ method, request }) => ({ method, request }));
  const last = () => vaultCalls().at(-1);
  /** Saves `name` of `clientId` (created, then updated until it is at `version`); the field's version. */
  async function storeField(
    name: string,
    options: { version?: number; type?: VaultFieldType; value?: string; clientId?: string } = {},
  ): Promise<number> {
    const { version = 1, type = 'free_text', value = MARKER, clientId = CLIENT_ID } = options;
    let saved = await vault().saveField({
      client_id: clientId,
      request_id: 'vault-pages',
      field: { name, type, value },
    });
    while (saved.field.version < version) {
      saved = await vault().saveField({
        client_id: clientId,
        request_id: 'vault-pages',
        field: { name, type, value, expected_version: saved.field.version },
      });
    }
    return saved.field.version;
  }
  /** An extraction of TWO_EMAILS for `clientId`, as the vault made it. */
  async function twoCandidates(clientId: string): Promise<VaultExtraction> {
    const { extraction } = await vault().createExtraction({
      client_id: clientId,
      request_id: 'vault-pages',
      document: { text: TWO_EMAILS },
    });
    expect(extraction.candidates.map((candidate) => candidate.type)).toEqual(['email', 'email']);
    return extraction;
  }
  /** A document filled for `clientId` from a text template, as the vault keeps it; its id. */
  async function filledDocument(clientId: string, text: string): Promise<string> {
    const { document } = await vault().fillDocument({
      client_id: clientId,
      request_id: 'vault-pages',
      base_url: harness.url,
      request: { template: { text, format: 'text' }, fields: ['email'] },
    });
    return document.document_id;
  }

  beforeAll(async () => {
    harness = await startDashboardHarness();
    owner = await signIn(harness, 'owner@acme.test');
    developer = await signIn(harness, 'dev@acme.test');
    viewer = await signIn(harness, 'viewer@acme.test');
  });
  afterAll(async () => harness.close());
  beforeEach(async () => {
    // Each test starts from an empty vault of acme's, and no call recorded.
    const { fields } = await vault().listFields({ client_id: CLIENT_ID });
    for (const { name, version } of fields) {
      await vault().deleteField({
        client_id: CLIENT_ID,
        request_id: 'vault-pages',
        name,
        expected_version: version,
      });
    }
    harness.platform.rpc.clearCalls();
  });

  it('refuses every vault page to a developer and a viewer (403)', async () => {
    const id = randomUUID();
    for (const person of [developer, viewer]) {
      for (const path of [
        '/dashboard/vault',
        '/dashboard/vault/extractions',
        `/dashboard/vault/extractions/${id}`,
        '/dashboard/vault/fill',
        '/dashboard/vault/audit',
      ]) {
        const res = await person.get(path);
        expect([path, res.status]).toEqual([path, 403]);
      }
      const save = await person.post('/dashboard/vault/fields', { name: 'x', type: 'free_text', value: 'v' });
      expect(save.status).toBe(403);
      const form = new FormData();
      form.append('_csrf', person.csrf);
      form.append('template', new Blob(['Hello {{email}}'], { type: 'text/plain' }), 't.txt');
      const fill = await harness.fetch('/dashboard/vault/fill', {
        method: 'POST',
        headers: { cookie: person.cookie },
        body: form,
        redirect: 'manual',
      });
      expect(fill.status).toBe(403);
    }
    expect(vaultCalls()).toEqual([]);
    expect(harness.requests('uploads', 'createSession')).toEqual([]);
  });

  it('lists fields masked, with the version each edit form sends back', async () => {
    await storeField('billing_email', { version: 4 });
    const res = await owner.get('/dashboard/vault');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="field-row" data-field-name="billing_email"');
    expect(html).toContain('<td data-testid="field-mask">M*** (20 chars)</td>');
    expect(html).toContain('name="expected_version" value="4"');
  });

  it('saves a field for the signed-in client, and never shows the value back', async () => {
    const created = await owner.post('/dashboard/vault/fields', {
      name: 'note',
      type: 'free_text',
      value: MARKER,
    });
    expect(created.status).toBe(303);
    expect(last()).toMatchObject({
      method: 'saveField',
      request: { client_id: CLIENT_ID, field: { name: 'note', type: 'free_text', value: MARKER } },
    });
    const updated = await owner.post('/dashboard/vault/fields', {
      name: 'note',
      type: 'free_text',
      value: 'other',
      expected_version: '1',
    });
    expect(updated.status).toBe(303);
    expect(last()).toMatchObject({
      method: 'saveField',
      request: { field: { expected_version: 1 } },
    });

    // Saved again at version 1, which the update above made 2: the vault's 409.
    const stale = await owner.post('/dashboard/vault/fields', {
      name: 'note',
      type: 'free_text',
      value: MARKER,
      expected_version: '1',
    });
    expect(stale.status).toBe(409);
    const html = await stale.text();
    expect(html).toContain('is at version 2, not 1');
    expect(html).not.toContain(MARKER);
    expect(harness.rawLogs()).not.toContain(MARKER);

    const bad = await owner.post('/dashboard/vault/fields', {
      name: 'Bad Name',
      type: 'free_text',
      value: MARKER,
    });
    expect(bad.status).toBe(422);
    expect(await bad.text()).not.toContain(MARKER);
  });

  it('saves and deletes only with a valid CSRF token', async () => {
    await storeField('note', { version: 2 });
    harness.platform.rpc.clearCalls();
    const forged = await owner.post('/dashboard/vault/fields', {
      _csrf: 'x',
      name: 'note',
      type: 'free_text',
      value: 'v',
    });
    expect(forged.status).toBe(403);
    const del = await owner.post('/dashboard/vault/fields/note/delete', {
      _csrf: null,
      expected_version: '2',
    });
    expect(del.status).toBe(403);
    expect(vaultCalls()).toEqual([]);
    const deleted = await owner.post('/dashboard/vault/fields/note/delete', { expected_version: '2' });
    expect(deleted.status).toBe(303);
    expect(last()).toEqual({
      method: 'deleteField',
      request: expect.objectContaining({ client_id: CLIENT_ID, name: 'note', expected_version: 2 }),
    });
  });

  it("answers 404 for another client's extraction, its review and a malformed id", async () => {
    const theirs = await twoCandidates(OTHER_CLIENT_ID);
    const page = await owner.get(`/dashboard/vault/extractions/${theirs.extraction_id}`);
    expect(page.status).toBe(404);
    expect(errorStatus(await page.text())).toBe('404');
    const first = theirs.candidates[0]?.candidate_id ?? '';
    const review = await owner.post(`/dashboard/vault/extractions/${theirs.extraction_id}/review`, {
      expected_version: String(theirs.version),
      [`decision.${first}`]: 'approve',
    });
    expect(review.status).toBe(404);
    expect((await owner.get('/dashboard/vault/extractions/nope')).status).toBe(404);
    expect(vaultCalls().some((call) => call.method === 'reviewExtraction')).toBe(false);
  });

  it('reviews an extraction: approve one (with the existing field version), reject another', async () => {
    const mine = await twoCandidates(CLIENT_ID);
    const [approve, reject] = mine.candidates.map((candidate) => candidate.candidate_id);
    // The field the approval saves to exists already: the review must name its version.
    const target = mine.candidates[0]?.field_name ?? '';
    const fieldVersion = await storeField(target, { version: 7, type: 'email', value: 'old@example.com' });
    const html = await (await owner.get(`/dashboard/vault/extractions/${mine.extraction_id}`)).text();
    expect(html).toContain(`data-testid="candidate" data-candidate-id="${approve}"`);
    expect(html).toContain(`name="decision.${reject}" value="reject"`);
    expect(html).toContain('data-testid="review-submit"');

    const res = await owner.post(`/dashboard/vault/extractions/${mine.extraction_id}/review`, {
      expected_version: String(mine.version),
      [`decision.${approve}`]: 'approve',
      [`field_name.${approve}`]: target,
      [`decision.${reject}`]: 'reject',
      [`field_name.${reject}`]: 'home_email',
    });
    expect(res.status).toBe(303);
    expect(last()).toEqual({
      method: 'reviewExtraction',
      request: expect.objectContaining({
        client_id: CLIENT_ID,
        extraction_id: mine.extraction_id,
        review: {
          expected_version: mine.version,
          decisions: [
            { candidate_id: approve, action: 'approve', field_version: fieldVersion },
            { candidate_id: reject, action: 'reject' },
          ],
        },
      }),
    });
    // The vault applied it: the approved value replaced the field (one version more).
    const { fields } = await vault().listFields({ client_id: CLIENT_ID });
    expect(fields.find((field) => field.name === target)?.version).toBe(fieldVersion + 1);

    // Refused by the form before the vault is asked, on an extraction with candidates pending.
    const pending = await twoCandidates(CLIENT_ID);
    const [first] = pending.candidates.map((candidate) => candidate.candidate_id);
    const empty = await owner.post(`/dashboard/vault/extractions/${pending.extraction_id}/review`, {
      expected_version: String(pending.version),
    });
    expect(empty.status).toBe(422);
    const uncorrected = await owner.post(`/dashboard/vault/extractions/${pending.extraction_id}/review`, {
      expected_version: String(pending.version),
      [`decision.${first}`]: 'correct',
    });
    expect(uncorrected.status).toBe(422);
  });

  it('fills an uploaded template: upload session, PUT of the bytes, fillDocument, download link', async () => {
    const template = 'Dear {{full_name}}, {{email}}';
    const form = new FormData();
    form.append('_csrf', owner.csrf);
    form.append('fields', 'full_name');
    form.append('fields', 'email');
    form.append('template', new Blob([template], { type: 'text/plain' }), 'Brief für Jana.txt');
    const res = await harness.fetch('/dashboard/vault/fill', {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
      redirect: 'manual',
    });
    // POST-redirect-GET: the document's own page shows what was filled.
    expect(res.status).toBe(303);
    const shown = await owner.get(res.headers.get('location') ?? '');
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(harness.requests('uploads', 'createSession')).toEqual([
      expect.objectContaining({
        client_id: CLIENT_ID,
        slug: 'vault-document',
        input: {
          filename: 'Brief für Jana.txt',
          content_type: 'text/plain',
          size_bytes: Buffer.byteLength(template),
        },
      }),
    ]);
    const fill = vaultCalls().find((call) => call.method === 'fillDocument');
    expect(fill).toMatchObject({
      method: 'fillDocument',
      request: {
        client_id: CLIENT_ID,
        request: { template: { upload_id: expect.any(String) }, fields: ['full_name', 'email'] },
      },
    });
    // The template the vault filled is the upload the page made, stored complete (its bytes PUT).
    const filled = rpcCatalog.vault.fillDocument.request.parse(fill?.request).request.template;
    const uploadId = 'upload_id' in filled ? filled.upload_id : '';
    const upload = await harness.platform
      .client('uploads')
      .getUpload({ client_id: CLIENT_ID, upload_id: uploadId });
    expect(upload).toMatchObject({ status: 'complete', size_bytes: Buffer.byteLength(template) });
    expect(html).toMatch(
      /href="\/dashboard\/vault\/documents\/[0-9a-f-]{36}\/download" data-testid="document-download"/,
    );
  });

  it("shows the fill form with the client's fields and its kept documents", async () => {
    await storeField('email', { type: 'email', value: 'jana@example.com' });
    const documentId = await filledDocument(CLIENT_ID, 'x');
    const res = await owner.get('/dashboard/vault/fill');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('enctype="multipart/form-data"');
    expect(html).toContain('name="fields" value="email"');
    expect(html).toContain(`data-testid="document-row" data-document-id="${documentId}"`);
    expect(html).toContain(`href="/dashboard/vault/documents/${documentId}/download"`);
    expect(vaultCalls().find((call) => call.method === 'listDocuments')?.request).toMatchObject({
      client_id: CLIENT_ID,
    });
  });

  it('checks the CSRF token of the multipart form before storing anything', async () => {
    const form = new FormData();
    form.append('_csrf', 'forged');
    form.append('fields', 'email');
    form.append('template', new Blob(['x'], { type: 'text/plain' }), 't.txt');
    const before = harness.requests('uploads', 'createSession').length;
    const res = await harness.fetch('/dashboard/vault/fill', {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(harness.requests('uploads', 'createSession')).toHaveLength(before);
    expect(vaultCalls()).toEqual([]);
  });

  it('refuses a template over 10 MB (413) and one of another type (422)', async () => {
    const big = new FormData();
    big.append('_csrf', owner.csrf);
    big.append('fields', 'email');
    big.append('template', new Blob([Buffer.alloc(10 * 1024 * 1024 + 1)], { type: 'text/plain' }), 'big.txt');
    const tooBig = await harness.fetch('/dashboard/vault/fill', {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: big,
    });
    expect(tooBig.status).toBe(413);
    const odd = new FormData();
    odd.append('_csrf', owner.csrf);
    odd.append('fields', 'email');
    odd.append('template', new Blob(['MZ'], { type: 'application/x-msdownload' }), 'tool.exe');
    const wrongType = await harness.fetch('/dashboard/vault/fill', {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: odd,
    });
    expect(wrongType.status).toBe(422);
    expect(vaultCalls().some((call) => call.method === 'fillDocument')).toBe(false);
  });

  it("streams a filled document; another client's document is the 404 page", async () => {
    const documentId = await filledDocument(CLIENT_ID, 'filled text');
    const res = await owner.get(`/dashboard/vault/documents/${documentId}/download`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('filled text');
    const other = await signIn(harness, 'owner@other.test');
    expect((await other.get(`/dashboard/vault/documents/${documentId}/download`)).status).toBe(404);
  });

  it('shows the audit trail and refuses a cursor that is not one (422)', async () => {
    const res = await owner.get('/dashboard/vault/audit');
    expect(res.status).toBe(200);
    expect(last()).toEqual({
      method: 'audit',
      request: { client_id: CLIENT_ID, query: { limit: 50 } },
    });
    expect((await owner.get('/dashboard/vault/audit?cursor=abc')).status).toBe(422);
  });
});
