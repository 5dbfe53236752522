import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { putMeasured } from '@svc/storage';
import { pollUntil } from '@svc/testkit';
import { registerArtifacts } from '../src/domain/artifacts';
import { cleanupPass } from '../src/domain/cleanup';
import { signLink } from '../src/domain/download-link';
import { startCleanup } from '../src/handlers/cleanup-job';
import { makeImage, makePdf } from './fixtures';
import { type Harness, newClientId, rawRequest, startHarness } from './harness';

let h: Harness;
const client = newClientId();
const other = newClientId();

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

/** A complete upload of `bytes` for `owner`, through the real PUT. */
function completeUpload(
  slug: string,
  filename: string,
  contentType: string,
  bytes: Buffer,
  owner = client,
): Promise<string> {
  return h.completeUpload(owner, slug, { filename, contentType, bytes });
}

function resolve(slug: string, uploadIds: string[], runId?: string, owner = client) {
  return h.uploads.resolveFiles({
    client_id: owner,
    slug,
    upload_ids: uploadIds,
    ...(runId === undefined ? {} : { run_id: runId }),
  });
}

describe('uploads.resolveFiles', () => {
  let pdfId: string;

  beforeAll(async () => {
    pdfId = await completeUpload('pdf-extract-text', 'doc.pdf', 'application/pdf', await makePdf(2));
  });

  it('resolves complete uploads with their storage key and facts, in input order', async () => {
    const images = [
      await completeUpload('image-thumbnail', 'a.png', 'image/png', await makeImage(10, 20, 'png')),
      await completeUpload('image-thumbnail', 'b.jpg', 'image/jpeg', await makeImage(30, 40, 'jpeg')),
    ];
    const { files } = await resolve('image-thumbnail', [images[1] ?? '', images[0] ?? '']);
    expect(files.map((file) => [file.upload_id, file.facts])).toEqual([
      [images[1], { width: 30, height: 40, format: 'jpeg' }],
      [images[0], { width: 10, height: 20, format: 'png' }],
    ]);
    const { files: pdf } = await resolve('pdf-extract-text', [pdfId]);
    expect(pdf).toEqual([
      expect.objectContaining({
        upload_id: pdfId,
        filename: 'doc.pdf',
        content_type: 'application/pdf',
        facts: { pages: 2 },
        storage_key: `uploads/${pdfId}`,
      }),
    ]);
  });

  it('answers 404 for an unknown upload or another client’s, with the same words', async () => {
    const unknown = randomUUID();
    await expect(resolve('pdf-extract-text', [unknown])).rejects.toMatchObject({
      status: 404,
      message: `unknown upload_id: ${unknown}`,
    });
    await expect(resolve('pdf-extract-text', [pdfId], undefined, other)).rejects.toMatchObject({
      status: 404,
      message: `unknown upload_id: ${pdfId}`,
    });
  });

  it('answers 409 for an upload without bytes: pending, expired or deleted', async () => {
    const pending = await h.session(client, 'pdf-extract-text', {
      filename: 'p.pdf',
      content_type: 'application/pdf',
      size_bytes: 10,
    });
    await expect(resolve('pdf-extract-text', [pending.uploadId])).rejects.toMatchObject({
      status: 409,
      message: `upload ${pending.uploadId} is not complete (status pending): PUT its bytes first`,
    });
    await h.db.prisma.uploadSession.update({ where: { id: pending.uploadId }, data: { status: 'expired' } });
    await expect(resolve('pdf-extract-text', [pending.uploadId])).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/expired at .* before its bytes arrived/),
    });

    const due = await completeUpload('pdf-extract-text', 'due.pdf', 'application/pdf', await makePdf(1));
    await h.db.prisma.uploadSession.update({
      where: { id: due },
      data: { deleteAfter: new Date(Date.now() - 1) },
    });
    await expect(resolve('pdf-extract-text', [due])).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(new RegExp(`^upload ${due} was deleted at .*; upload the file again$`)),
    });
    // Nor can a run claim it while it waits for the cleanup pass.
    await expect(resolve('pdf-extract-text', [due], randomUUID())).rejects.toMatchObject({ status: 409 });
  });

  it('answers 422 for an upload made for another capability, a wrong count, a duplicate or type', async () => {
    await expect(resolve('csv-profile', [pdfId])).rejects.toMatchObject({
      status: 422,
      message: `upload ${pdfId} was made for capability pdf-extract-text, not csv-profile`,
    });
    await expect(resolve('csv-profile', [])).rejects.toMatchObject({
      status: 422,
      message: 'capability csv-profile takes exactly 1 file; the input names 0',
    });
    const png = await makeImage(4, 4, 'png');
    const ids = [];
    for (let n = 0; n < 4; n += 1)
      ids.push(await completeUpload('image-thumbnail', `i${n}.png`, 'image/png', png));
    await expect(resolve('image-thumbnail', ids)).rejects.toMatchObject({
      status: 422,
      message: 'capability image-thumbnail takes 1 to 3 files; the input names 4',
    });
    const [first = ''] = ids;
    await expect(resolve('image-thumbnail', [first, first])).rejects.toMatchObject({
      status: 422,
      message: `upload ${first} is named more than once`,
    });
    // The capability's content types changed since the session (a new manifest): checked again.
    await h.db.prisma.uploadSession.update({ where: { id: first }, data: { contentType: 'image/gif' } });
    await expect(resolve('image-thumbnail', [first])).rejects.toMatchObject({
      status: 422,
      message: `upload ${first}: capability image-thumbnail accepts image/jpeg, image/png or image/webp, not image/gif`,
    });
  });

  it('marks the uploads used by a run (kept from then on), once', async () => {
    const id = await completeUpload('pdf-extract-text', 'used.pdf', 'application/pdf', await makePdf(1));
    const runId = randomUUID();
    await resolve('pdf-extract-text', [id], runId);
    const used = await h.db.prisma.uploadSession.findUniqueOrThrow({ where: { id } });
    expect(used).toMatchObject({ usedByRunId: runId, deleteAfter: null, status: 'complete' });
    expect(used.usedAt).toBeInstanceOf(Date);
    // A retry of the same run and a later run change nothing: the first run is recorded.
    await resolve('pdf-extract-text', [id], runId);
    await resolve('pdf-extract-text', [id], randomUUID());
    expect(await h.db.prisma.uploadSession.findUniqueOrThrow({ where: { id } })).toMatchObject({
      usedByRunId: runId,
      usedAt: used.usedAt,
    });
    // A quote without run_id marks nothing.
    const quoted = await completeUpload('pdf-extract-text', 'q.pdf', 'application/pdf', await makePdf(1));
    await resolve('pdf-extract-text', [quoted]);
    expect(await h.db.prisma.uploadSession.findUniqueOrThrow({ where: { id: quoted } })).toMatchObject({
      usedByRunId: null,
    });
  });
});

/** Writes an artifact's bytes as a worker would (`artifacts/<run>/<name>`) and returns its report entry. */
async function writeArtifact(runId: string, name: string, contentType: string, bytes: Buffer) {
  const key = `artifacts/${runId}/${name}`;
  const { sizeBytes, sha256 } = await putMeasured(h.store, key, Readable.from([bytes]), {
    contentType,
    maxBytes: bytes.length,
  });
  return { name, content_type: contentType, size_bytes: sizeBytes, sha256, storage_key: key };
}

function download(url: string, clientId: string | null) {
  const parsed = new URL(url);
  const artifactId = parsed.pathname.split('/')[3] ?? '';
  return rawRequest(`${h.server.url}/internal/artifacts/${artifactId}/content${parsed.search}`, {
    method: 'GET',
    headers: clientId === null ? {} : { 'x-svc-client-id': clientId },
  });
}

describe('artifacts', () => {
  const runId = randomUUID();
  const text = Buffer.from('page one\fpage two\n');
  let artifacts: Array<{ artifact_id: string; download_url: string; name: string; sha256: string }>;

  beforeAll(async () => {
    const reported = [
      await writeArtifact(runId, 'text.txt', 'text/plain', text),
      await writeArtifact(runId, 'a-thumb.png', 'image/png', await makeImage(4, 4, 'png')),
    ];
    await expect(
      h.uploads.registerArtifacts({ client_id: client, run_id: runId, artifacts: reported }),
    ).resolves.toEqual({ registered: 2 });
    // A repeated report (at-least-once delivery) lands on the same rows.
    await expect(
      h.uploads.registerArtifacts({ client_id: client, run_id: runId, artifacts: reported }),
    ).resolves.toEqual({ registered: 2 });
    expect(await h.db.prisma.artifact.count({ where: { runId } })).toBe(2);
    ({ artifacts } = await h.uploads.listArtifacts({
      client_id: client,
      run_id: runId,
      base_url: 'https://api.example.test/',
    }));
  });

  it('refuses a storage key outside the run’s own prefix', async () => {
    const outside = await writeArtifact(randomUUID(), 'x.txt', 'text/plain', text);
    await expect(
      h.uploads.registerArtifacts({ client_id: client, run_id: runId, artifacts: [outside] }),
    ).rejects.toMatchObject({
      status: 422,
      message: `artifact x.txt: storage_key must be under artifacts/${runId}/`,
    });
    // Under the prefix by its text only: `..` climbs out of it.
    const climbing = { ...outside, storage_key: `artifacts/${runId}/../${outside.storage_key.slice(10)}` };
    await expect(
      h.uploads.registerArtifacts({ client_id: client, run_id: runId, artifacts: [climbing] }),
    ).rejects.toMatchObject({
      status: 422,
      message: `artifact x.txt: storage_key must be under artifacts/${runId}/`,
    });
    expect(await h.db.prisma.artifact.count({ where: { runId, name: 'x.txt' } })).toBe(0);
  });

  it('lists them by name with signed links, for the owner only', async () => {
    expect(artifacts.map((artifact) => artifact.name)).toEqual(['a-thumb.png', 'text.txt']);
    for (const artifact of artifacts) {
      const url = new URL(artifact.download_url);
      expect(url.origin).toBe('https://api.example.test');
      expect(url.pathname).toBe(`/api/artifacts/${artifact.artifact_id}/download`);
      expect(url.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    const theirs = await h.uploads.listArtifacts({
      client_id: other,
      run_id: runId,
      base_url: 'https://api.example.test',
    });
    expect(theirs.artifacts).toEqual([]);
  });

  it('serves the bytes for a valid link with the download headers', async () => {
    const artifact = artifacts.find((entry) => entry.name === 'text.txt');
    if (artifact === undefined) throw new Error('text.txt not listed');
    const answer = await download(artifact.download_url, client);
    expect(answer.status).toBe(200);
    expect(answer.body.equals(text)).toBe(true);
    expect(answer.headers).toMatchObject({
      'content-type': 'text/plain',
      'content-length': String(text.length),
      'content-disposition': 'attachment; filename=text.txt',
      etag: `"${artifact.sha256}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
      'x-checksum-sha256': artifact.sha256,
    });
  });

  it('answers 403 for a tampered, another client’s or an expired link, and 404 when it is gone', async () => {
    const [artifact] = artifacts;
    if (artifact === undefined) throw new Error('nothing listed');
    const url = new URL(artifact.download_url);
    const signature = url.searchParams.get('signature') ?? '';

    const tampered = new URL(url);
    tampered.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`);
    const notValid = { ok: false, error: 'download link is not valid for this client' };
    const tamperedAnswer = await download(tampered.toString(), client);
    expect([tamperedAnswer.status, tamperedAnswer.json()]).toEqual([403, notValid]);
    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3_600));
    expect((await download(longer.toString(), client)).status).toBe(403);
    const otherAnswer = await download(url.toString(), other);
    expect([otherAnswer.status, otherAnswer.json()]).toEqual([403, notValid]);
    expect((await download(url.toString(), null)).status).toBe(403);

    const past = signLink(
      h.deps.settings.linkSecret,
      artifact.artifact_id,
      client,
      new Date(Date.now() - 60_000),
      1_000,
    );
    const expired = new URL(url);
    expired.searchParams.set('expires', String(past.expires));
    expired.searchParams.set('signature', past.signature);
    const expiredAnswer = await download(expired.toString(), client);
    expect(expiredAnswer.status).toBe(403);
    expect(expiredAnswer.json().error).toBe(
      `download link expired at ${new Date(past.expires * 1000).toISOString()}; list the artifacts again for a fresh link`,
    );

    const goneId = randomUUID();
    const gone = signLink(h.deps.settings.linkSecret, goneId, client, new Date(), 60_000);
    const goneAnswer = await rawRequest(
      `${h.server.url}/internal/artifacts/${goneId}/content?expires=${gone.expires}&signature=${gone.signature}`,
      { method: 'GET', headers: { 'x-svc-client-id': client } },
    );
    expect([goneAnswer.status, goneAnswer.json()]).toEqual([404, { ok: false, error: 'unknown artifact' }]);

    const malformed = await rawRequest(
      `${h.server.url}/internal/artifacts/${artifact.artifact_id}/content?expires=soon`,
      {
        method: 'GET',
        headers: { 'x-svc-client-id': client },
      },
    );
    expect(malformed.status).toBe(422);
    const wrongMethod = await rawRequest(
      `${h.server.url}/internal/artifacts/${artifact.artifact_id}/content`,
      {
        method: 'DELETE',
      },
    );
    expect([wrongMethod.status, wrongMethod.headers.allow]).toEqual([405, 'GET, HEAD']);
  });
});

describe('cleanup', () => {
  it('expires old sessions, deletes unused uploads past retention and expired artifacts', async () => {
    const now = Date.now();
    const pending = await h.session(client, 'pdf-extract-text', {
      filename: 'p.pdf',
      content_type: 'application/pdf',
      size_bytes: 10,
    });
    const staleClaim = await h.session(client, 'pdf-extract-text', {
      filename: 's.pdf',
      content_type: 'application/pdf',
      size_bytes: 10,
    });
    const freshClaim = await h.session(client, 'pdf-extract-text', {
      filename: 'f.pdf',
      content_type: 'application/pdf',
      size_bytes: 10,
    });
    const unused = await completeUpload(
      'pdf-extract-text',
      'unused.pdf',
      'application/pdf',
      await makePdf(1),
    );
    const used = await completeUpload('pdf-extract-text', 'kept.pdf', 'application/pdf', await makePdf(1));
    await resolve('pdf-extract-text', [used], randomUUID());
    await h.db.prisma.uploadSession.update({
      where: { id: staleClaim.uploadId },
      data: { status: 'uploading', claimedAt: new Date(now - 11 * 60_000) },
    });
    await h.db.prisma.uploadSession.update({
      where: { id: freshClaim.uploadId },
      // Claimed a minute before the pass below: its PUT may still be streaming.
      data: { status: 'uploading', claimedAt: new Date(now + 2 * 24 * 3_600_000 - 60_000) },
    });

    // An artifact kept 1 day (ARTIFACT_RETENTION_DAYS=1) and one kept forever (unset).
    const runId = randomUUID();
    const retained = { ...h.deps, settings: { ...h.deps.settings, artifactRetentionDays: 1 } };
    const expiring = await writeArtifact(runId, 'old.txt', 'text/plain', Buffer.from('old'));
    await registerArtifacts(retained, { clientId: client, runId, artifacts: [expiring] });
    const keptRun = randomUUID();
    const forever = await writeArtifact(keptRun, 'keep.txt', 'text/plain', Buffer.from('keep'));
    await registerArtifacts(h.deps, { clientId: client, runId: keptRun, artifacts: [forever] });

    // Nothing of this test is due yet (earlier tests may have left due rows: counts are not checked).
    await cleanupPass(h.deps);
    expect((await h.db.prisma.uploadSession.findUniqueOrThrow({ where: { id: unused } })).status).toBe(
      'complete',
    );
    expect(
      (await h.db.prisma.uploadSession.findUniqueOrThrow({ where: { id: pending.uploadId } })).status,
    ).toBe('pending');
    expect(await h.db.prisma.artifact.count({ where: { runId } })).toBe(1);

    // Two days later: every session has expired, the unused upload and the old artifact are due.
    const later = new Date(now + 2 * 24 * 3_600_000);
    const result = await cleanupPass({ ...h.deps, now: () => later });
    expect(result.deleted_uploads).toBeGreaterThanOrEqual(1);
    expect(result.deleted_artifacts).toBe(1);
    expect(result.expired_sessions).toBeGreaterThanOrEqual(2);

    const row = (id: string) => h.db.prisma.uploadSession.findUniqueOrThrow({ where: { id } });
    expect((await row(pending.uploadId)).status).toBe('expired');
    expect((await row(staleClaim.uploadId)).status).toBe('expired');
    expect((await row(freshClaim.uploadId)).status).toBe('uploading');
    expect(await row(unused)).toMatchObject({ status: 'expired', storageKey: null });
    expect(await h.store.stat(`uploads/${unused}`)).toBeNull();
    expect(await row(used)).toMatchObject({ status: 'complete', storageKey: `uploads/${used}` });
    expect(await h.store.stat(`uploads/${used}`)).not.toBeNull();
    expect(await h.db.prisma.artifact.count({ where: { runId } })).toBe(0);
    expect(await h.store.stat(expiring.storage_key)).toBeNull();
    expect(await h.db.prisma.artifact.count({ where: { runId: keptRun } })).toBe(1);
    expect(await h.store.stat(forever.storage_key)).not.toBeNull();

    // A second pass finds nothing more to do (idempotent).
    expect(await cleanupPass({ ...h.deps, now: () => later })).toMatchObject({
      deleted_uploads: 0,
      deleted_artifacts: 0,
    });
  });

  it('runs as the repeatable uploads.cleanup job', async () => {
    const session = await h.session(client, 'csv-profile', {
      filename: 'x.csv',
      content_type: 'text/csv',
      size_bytes: 10,
    });
    await h.db.prisma.uploadSession.update({
      where: { id: session.uploadId },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    const processor = await startCleanup(h.bus, h.deps, 200);
    try {
      await pollUntil(
        async () =>
          (await h.db.prisma.uploadSession.findUniqueOrThrow({ where: { id: session.uploadId } })).status ===
          'expired',
      );
    } finally {
      await processor.close();
    }
  });
});
