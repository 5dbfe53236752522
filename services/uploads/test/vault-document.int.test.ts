import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { VAULT_DOCUMENT_MAX_BYTES, VAULT_DOCUMENT_UPLOAD_SLUG } from '@svc/contracts';
import { putMeasured } from '@svc/storage';
import { listArtifacts, registerArtifacts } from '../src/domain/artifacts';
import { cleanupPass } from '../src/domain/cleanup';
import { makePdf } from './fixtures';
import { type Harness, newClientId, startHarness } from './harness';

// The reserved upload target `vault-document` (decisions VL3, VG7) on real PostgreSQL, Redis and the
// internal HTTP server: sessions without a registry entry (the fake registry has none), the PUT,
// `uploads.resolveFiles` marking the vault's extraction or document as the user, retention that a
// use does not lift, and artifacts registered with their own expiry (VG8).

let h: Harness;
const client = newClientId();
const VAULT = VAULT_DOCUMENT_UPLOAD_SLUG;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

function completeUpload(slug: string, filename: string, contentType: string, bytes: Buffer) {
  return h.completeUpload(client, slug, { filename, contentType, bytes });
}

function resolve(slug: string, uploadIds: string[], runId?: string) {
  return h.uploads.resolveFiles({
    client_id: client,
    slug,
    upload_ids: uploadIds,
    ...(runId === undefined ? {} : { run_id: runId }),
  });
}

const row = (id: string) => h.db.prisma.uploadSession.findUniqueOrThrow({ where: { id } });

describe('upload target vault-document', () => {
  it('opens sessions for PDF, text, Markdown and HTML up to 10 MB, and refuses anything else', async () => {
    for (const [filename, content_type] of [
      ['form.pdf', 'application/pdf'],
      ['letter.txt', 'text/plain'],
      ['letter.md', 'text/markdown'],
      ['letter.html', 'text/html'],
    ]) {
      const { uploadId } = await h.session(client, VAULT, {
        filename: filename ?? '',
        content_type: content_type ?? '',
        size_bytes: VAULT_DOCUMENT_MAX_BYTES,
      });
      expect(await row(uploadId)).toMatchObject({ slug: VAULT, status: 'pending' });
    }
    await expect(
      h.session(client, VAULT, { filename: 'x.png', content_type: 'image/png', size_bytes: 10 }),
    ).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/not image\/png$/) });
    await expect(
      h.session(client, VAULT, {
        filename: 'big.pdf',
        content_type: 'application/pdf',
        size_bytes: VAULT_DOCUMENT_MAX_BYTES + 1,
      }),
    ).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/^input\.size_bytes: /) });
  });

  it('resolves for the vault only, marks the user and keeps the retention', async () => {
    const pdf = await completeUpload(VAULT, 'form.pdf', 'application/pdf', await makePdf(1));
    const text = await completeUpload(
      VAULT,
      'letter.md',
      'text/markdown',
      Buffer.from('# Hi {{given_name}}'),
    );
    const completed = await row(pdf);
    expect(completed.deleteAfter).toBeInstanceOf(Date);

    const extractionId = randomUUID();
    const { files } = await resolve(VAULT, [pdf], extractionId);
    expect(files).toEqual([
      expect.objectContaining({
        upload_id: pdf,
        content_type: 'application/pdf',
        storage_key: `uploads/${pdf}`,
      }),
    ]);
    // The use is recorded; the bytes are still deleted at the same time (VG7).
    expect(await row(pdf)).toMatchObject({ usedByRunId: extractionId, deleteAfter: completed.deleteAfter });
    // Another use (a second fill with the same template) is allowed and records nothing new.
    await resolve(VAULT, [pdf], randomUUID());
    expect((await row(pdf)).usedByRunId).toBe(extractionId);

    // One document per extraction or fill.
    await expect(resolve(VAULT, [pdf, text])).rejects.toMatchObject({
      status: 422,
      message: 'capability vault-document takes exactly 1 file; the input names 2',
    });
    // Not an input of a capability, and a capability's upload is not a vault document.
    await expect(resolve('pdf-extract-text', [pdf])).rejects.toMatchObject({
      status: 422,
      message: `upload ${pdf} was made for capability vault-document, not pdf-extract-text`,
    });
    const capabilityUpload = await completeUpload(
      'pdf-extract-text',
      'c.pdf',
      'application/pdf',
      await makePdf(1),
    );
    await expect(resolve(VAULT, [capabilityUpload])).rejects.toMatchObject({ status: 422 });
  });

  it('deletes a used vault document at its retention, unlike a used run input', async () => {
    const doc = await completeUpload(VAULT, 'id.txt', 'text/plain', Buffer.from('Name: Jane'));
    const input = await completeUpload('pdf-extract-text', 'in.pdf', 'application/pdf', await makePdf(1));
    await resolve(VAULT, [doc], randomUUID());
    await resolve('pdf-extract-text', [input], randomUUID());
    const due = (await row(doc)).deleteAfter;
    if (due === null) throw new Error('a complete vault document has a delete_after');

    const later = new Date(due.getTime() + 1);
    // Due (its delete_after passed) but not cleaned yet: no longer resolvable, with the reason.
    await h.db.prisma.uploadSession.update({
      where: { id: doc },
      data: { deleteAfter: new Date(Date.now() - 1) },
    });
    await expect(resolve(VAULT, [doc])).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/was deleted at .*: its retention ended; upload the file again$/),
    });

    await cleanupPass({ ...h.deps, now: () => later });
    expect(await row(doc)).toMatchObject({ status: 'expired', storageKey: null });
    expect(await h.store.stat(`uploads/${doc}`)).toBeNull();
    expect(await row(input)).toMatchObject({ status: 'complete', storageKey: `uploads/${input}` });
    expect(await h.store.stat(`uploads/${input}`)).not.toBeNull();
  });
});

describe('artifacts with their own expiry (filled vault documents)', () => {
  async function writeArtifact(documentId: string, name: string) {
    const key = `artifacts/${documentId}/${name}`;
    const bytes = Buffer.from('Dear Jane');
    const { sizeBytes, sha256 } = await putMeasured(h.store, key, Readable.from([bytes]), {
      contentType: 'text/plain',
      maxBytes: bytes.length,
    });
    return { name, content_type: 'text/plain', size_bytes: sizeBytes, sha256, storage_key: key };
  }

  it('stores the asked expiry, keeps it on a repeated registration, and deletes the artifact then', async () => {
    const documentId = randomUUID();
    const artifact = await writeArtifact(documentId, 'filled.txt');
    const expiresAt = new Date(Date.now() + 24 * 3_600_000);
    await registerArtifacts(h.deps, {
      clientId: client,
      runId: documentId,
      artifacts: [artifact],
      expiresAt,
    });
    await registerArtifacts(h.deps, {
      clientId: client,
      runId: documentId,
      artifacts: [artifact],
      expiresAt: new Date(expiresAt.getTime() + 3_600_000),
    });
    const stored = await h.db.prisma.artifact.findFirstOrThrow({ where: { runId: documentId } });
    expect(stored.expiresAt).toEqual(expiresAt);
    const listed = await listArtifacts(h.deps, {
      clientId: client,
      runId: documentId,
      baseUrl: 'http://gw.test',
    });
    expect(listed.map((a) => a.name)).toEqual(['filled.txt']);

    const later = new Date(expiresAt.getTime() + 1);
    await cleanupPass({ ...h.deps, now: () => later });
    expect(await h.db.prisma.artifact.count({ where: { runId: documentId } })).toBe(0);
    expect(await h.store.stat(artifact.storage_key)).toBeNull();
  });

  it('takes the sooner of the asked expiry and ARTIFACT_RETENTION_DAYS', async () => {
    const documentId = randomUUID();
    const artifact = await writeArtifact(documentId, 'filled.txt');
    const retained = { ...h.deps, settings: { ...h.deps.settings, artifactRetentionDays: 1 } };
    const before = Date.now();
    await registerArtifacts(retained, {
      clientId: client,
      runId: documentId,
      artifacts: [artifact],
      expiresAt: new Date(before + 72 * 3_600_000),
    });
    const stored = await h.db.prisma.artifact.findFirstOrThrow({ where: { runId: documentId } });
    expect(stored.expiresAt?.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    expect(stored.expiresAt?.getTime()).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
  });
});
