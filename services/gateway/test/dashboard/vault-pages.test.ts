import { randomUUID } from 'node:crypto';
import type { VaultExtraction } from '@svc/contracts';
import { ConflictError, NotFoundError } from '@svc/errors';
import type { GetExtraction } from '../../src/domain/vault-service';
import { CLIENT_ID, OTHER_CLIENT_ID } from '../support/app-harness';
import { extraction, field, MARKER } from '../support/fake-vault';
import { type Browser, type DashboardHarness, signIn, startDashboardHarness } from './support';

/**
 * The vault pages through the app factory (fake vault, fake uploads service): masked fields, save
 * and delete with versions, the extraction review, filling a template uploaded as multipart, the
 * document download and the audit trail. Owner only; another client's extraction is the 404 page.
 */

function errorStatus(html: string): string | undefined {
  return /data-testid="error" data-status="(\d+)"/.exec(html)?.[1];
}

/** An extraction with two pending candidates, owned by `clientId` in the test's vault. */
function twoCandidates(): VaultExtraction {
  const base = extraction();
  const candidate = (field_name: string) => ({
    candidate_id: randomUUID(),
    field_name,
    type: 'email' as const,
    masked_value: 'j***@example.com',
    confidence: 0.9,
    page: 1,
    span: { start: 0, end: 5 },
    status: 'pending' as const,
  });
  return { ...base, version: 3, candidates: [candidate('work_email'), candidate('home_email')] };
}

describe('dashboard vault pages (server side)', () => {
  let harness: DashboardHarness;
  let owner: Browser;
  let developer: Browser;
  let viewer: Browser;
  const owners = new Map<string, { clientId: string; extraction: VaultExtraction }>();

  beforeAll(async () => {
    harness = await startDashboardHarness();
    // The fake vault answers any id: here an extraction belongs to one client, as in the real one.
    harness.vault.getExtraction = async (request: GetExtraction) => {
      harness.vault.calls.push({ method: 'getExtraction', request });
      const stored = owners.get(request.extraction_id);
      if (stored === undefined || stored.clientId !== request.client_id) {
        throw new NotFoundError(`unknown extraction: ${request.extraction_id}`);
      }
      return { ok: true, extraction: stored.extraction };
    };
    owner = await signIn(harness, 'owner@acme.test');
    developer = await signIn(harness, 'dev@acme.test');
    viewer = await signIn(harness, 'viewer@acme.test');
  });
  afterAll(async () => harness.close());
  beforeEach(() => {
    harness.vault.fields.clear();
    harness.vault.calls.length = 0;
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
    expect(harness.vault.calls).toEqual([]);
    expect(harness.uploads.sessionRequests).toEqual([]);
  });

  it('lists fields masked, with the version each edit form sends back', async () => {
    harness.vault.fields.set('billing_email', field('billing_email', 4));
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
    expect(harness.vault.last()).toMatchObject({
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
    expect(harness.vault.last()).toMatchObject({
      method: 'saveField',
      request: { field: { expected_version: 1 } },
    });

    harness.vault.failNext = new ConflictError('field note is at version 2, not 1');
    const stale = await owner.post('/dashboard/vault/fields', {
      name: 'note',
      type: 'free_text',
      value: MARKER,
      expected_version: '1',
    });
    expect(stale.status).toBe(409);
    const html = await stale.text();
    expect(html).toContain('field note is at version 2, not 1');
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
    expect(harness.vault.calls).toEqual([]);
    const deleted = await owner.post('/dashboard/vault/fields/note/delete', { expected_version: '2' });
    expect(deleted.status).toBe(303);
    expect(harness.vault.last()).toEqual({
      method: 'deleteField',
      request: expect.objectContaining({ client_id: CLIENT_ID, name: 'note', expected_version: 2 }),
    });
  });

  it("answers 404 for another client's extraction, its review and a malformed id", async () => {
    const theirs = twoCandidates();
    owners.set(theirs.extraction_id, { clientId: OTHER_CLIENT_ID, extraction: theirs });
    const page = await owner.get(`/dashboard/vault/extractions/${theirs.extraction_id}`);
    expect(page.status).toBe(404);
    expect(errorStatus(await page.text())).toBe('404');
    const first = theirs.candidates[0]?.candidate_id ?? '';
    const review = await owner.post(`/dashboard/vault/extractions/${theirs.extraction_id}/review`, {
      expected_version: '3',
      [`decision.${first}`]: 'approve',
    });
    expect(review.status).toBe(404);
    expect((await owner.get('/dashboard/vault/extractions/nope')).status).toBe(404);
    expect(harness.vault.calls.some((call) => call.method === 'reviewExtraction')).toBe(false);
  });

  it('reviews an extraction: approve one (with the existing field version), reject another', async () => {
    const mine = twoCandidates();
    owners.set(mine.extraction_id, { clientId: CLIENT_ID, extraction: mine });
    harness.vault.fields.set('work_email', field('work_email', 7));
    const [approve, reject] = mine.candidates.map((candidate) => candidate.candidate_id);
    const html = await (await owner.get(`/dashboard/vault/extractions/${mine.extraction_id}`)).text();
    expect(html).toContain(`data-testid="candidate" data-candidate-id="${approve}"`);
    expect(html).toContain(`name="decision.${reject}" value="reject"`);
    expect(html).toContain('data-testid="review-submit"');

    const res = await owner.post(`/dashboard/vault/extractions/${mine.extraction_id}/review`, {
      expected_version: '3',
      [`decision.${approve}`]: 'approve',
      [`field_name.${approve}`]: 'work_email',
      [`decision.${reject}`]: 'reject',
      [`field_name.${reject}`]: 'home_email',
    });
    expect(res.status).toBe(303);
    expect(harness.vault.last()).toEqual({
      method: 'reviewExtraction',
      request: expect.objectContaining({
        client_id: CLIENT_ID,
        extraction_id: mine.extraction_id,
        review: {
          expected_version: 3,
          decisions: [
            { candidate_id: approve, action: 'approve', field_version: 7 },
            { candidate_id: reject, action: 'reject' },
          ],
        },
      }),
    });

    const empty = await owner.post(`/dashboard/vault/extractions/${mine.extraction_id}/review`, {
      expected_version: '3',
    });
    expect(empty.status).toBe(422);
    const uncorrected = await owner.post(`/dashboard/vault/extractions/${mine.extraction_id}/review`, {
      expected_version: '3',
      [`decision.${approve}`]: 'correct',
    });
    expect(uncorrected.status).toBe(422);
  });

  it('fills an uploaded template: upload session, PUT of the bytes, fillDocument, download link', async () => {
    // The fake uploads RPC knows capabilities only; the vault's upload target is the real service's.
    const createSession = harness.uploads.createSession.bind(harness.uploads);
    const asked: Array<Parameters<typeof createSession>[0]> = [];
    harness.uploads.createSession = (request) => {
      asked.push(request);
      return createSession({
        ...request,
        slug: request.slug === 'vault-document' ? 'pdf-extract-text' : request.slug,
      });
    };
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
    expect(asked).toEqual([
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
    const session = [...harness.uploads.sessions.values()].at(-1);
    expect(session?.record.status).toBe('complete');
    const fill = harness.vault.calls.find((call) => call.method === 'fillDocument');
    expect(fill).toMatchObject({
      method: 'fillDocument',
      request: {
        client_id: CLIENT_ID,
        request: { template: { upload_id: session?.record.upload_id }, fields: ['full_name', 'email'] },
      },
    });
    expect(html).toMatch(
      /href="\/dashboard\/vault\/documents\/[0-9a-f-]{36}\/download" data-testid="document-download"/,
    );
  });

  it("shows the fill form with the client's fields and its kept documents", async () => {
    harness.vault.fields.set('email', field('email'));
    const listDocuments = harness.vault.listDocuments.bind(harness.vault);
    const documentId = randomUUID();
    harness.vault.listDocuments = async (request) => {
      const none = await listDocuments(request);
      const kept = await harness.vault.fillDocument({
        ...request,
        request_id: 'r',
        request: { template: { text: 'x', format: 'text' }, fields: ['email'] },
      });
      return { ...none, count: 1, documents: [{ ...kept.document, document_id: documentId }] };
    };
    const res = await owner.get('/dashboard/vault/fill');
    harness.vault.listDocuments = listDocuments;
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('enctype="multipart/form-data"');
    expect(html).toContain('name="fields" value="email"');
    expect(html).toContain(`data-testid="document-row" data-document-id="${documentId}"`);
    expect(html).toContain(`href="/dashboard/vault/documents/${documentId}/download"`);
    expect(harness.vault.calls.find((call) => call.method === 'listDocuments')?.request).toMatchObject({
      client_id: CLIENT_ID,
    });
  });

  it('checks the CSRF token of the multipart form before storing anything', async () => {
    const form = new FormData();
    form.append('_csrf', 'forged');
    form.append('fields', 'email');
    form.append('template', new Blob(['x'], { type: 'text/plain' }), 't.txt');
    const before = harness.uploads.sessionRequests.length;
    const res = await harness.fetch('/dashboard/vault/fill', {
      method: 'POST',
      headers: { cookie: owner.cookie },
      body: form,
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(harness.uploads.sessionRequests).toHaveLength(before);
    expect(harness.vault.calls).toEqual([]);
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
    expect(harness.vault.calls.some((call) => call.method === 'fillDocument')).toBe(false);
  });

  it("streams a filled document; another client's document is the 404 page", async () => {
    const documentId = randomUUID();
    harness.uploads.addArtifact(CLIENT_ID, documentId, 'filled.txt', Buffer.from('filled text'));
    const getDocument = harness.vault.getDocument.bind(harness.vault);
    harness.vault.getDocument = async (request) => {
      if (request.document_id !== documentId || request.client_id !== CLIENT_ID) {
        throw new NotFoundError(`unknown document: ${request.document_id}`);
      }
      const answer = await getDocument(request);
      const listed = await harness.uploads.listArtifacts({
        client_id: CLIENT_ID,
        run_id: documentId,
        base_url: request.base_url,
      });
      const artifact = listed.artifacts[0];
      if (artifact === undefined) throw new Error('no artifact');
      return { ...answer, document: { ...answer.document, artifact } };
    };
    const res = await owner.get(`/dashboard/vault/documents/${documentId}/download`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('filled text');
    const other = await signIn(harness, 'owner@other.test');
    expect((await other.get(`/dashboard/vault/documents/${documentId}/download`)).status).toBe(404);
  });

  it('shows the audit trail and refuses a cursor that is not one (422)', async () => {
    const res = await owner.get('/dashboard/vault/audit');
    expect(res.status).toBe(200);
    expect(harness.vault.last()).toEqual({
      method: 'audit',
      request: { client_id: CLIENT_ID, query: { limit: 50 } },
    });
    expect((await owner.get('/dashboard/vault/audit?cursor=abc')).status).toBe(422);
  });
});
