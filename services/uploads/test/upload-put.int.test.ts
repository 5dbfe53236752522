import { createHash } from 'node:crypto';
import { generateApiKey, generateUploadToken, uploadTokenHash } from '@svc/auth';
import { UPLOAD_MAX_BYTES } from '@svc/contracts';
import { pollUntil } from '@svc/testkit';
import { makeImage, makePdf } from './fixtures';
import {
  type Harness,
  type HttpAnswer,
  newClientId,
  PDF_MAX_BYTES,
  rawRequest,
  startHarness,
  storedFiles,
} from './harness';

let h: Harness;
const client = newClientId();
const other = newClientId();

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function put(
  uploadId: string,
  token: string | null,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return rawRequest(`${h.server.url}/internal/uploads/${uploadId}`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/pdf',
      'content-length': String(body.length),
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    chunks: [body],
  });
}

async function status(uploadId: string): Promise<string | undefined> {
  return (await h.db.prisma.uploadSession.findUnique({ where: { id: uploadId } }))?.status;
}

/** A PDF session of `bytes` for `client`. */
async function pdfSession(bytes: Buffer, slug = 'pdf-extract-text') {
  return h.session(client, slug, {
    filename: 'doc.pdf',
    content_type: 'application/pdf',
    size_bytes: bytes.length,
  });
}

/** A token hash for sessions that are refused anyway. */
const HASH = uploadTokenHash(generateUploadToken()).toString('hex');

describe('upload sessions (uploads.createSession)', () => {
  it('stores a pending session with the hash of its token only', async () => {
    const token = generateUploadToken();
    const created = await h.uploads.createSession({
      client_id: client,
      slug: 'pdf-extract-text',
      input: { filename: 'report.pdf', content_type: 'application/pdf', size_bytes: 1234 },
      client_type: 'api',
      token_sha256: uploadTokenHash(token).toString('hex'),
    });
    h.tokens.push(token);
    expect(created.upload).toMatchObject({
      slug: 'pdf-extract-text',
      filename: 'report.pdf',
      content_type: 'application/pdf',
      size_bytes: 1234,
      status: 'pending',
      sha256: null,
      facts: null,
      completed_at: null,
      delete_after: null,
    });
    const ttl = Date.parse(created.upload.expires_at) - Date.parse(created.upload.created_at);
    expect(ttl).toBe(900_000);
    const row = await h.db.prisma.uploadSession.findUniqueOrThrow({
      where: { id: created.upload.upload_id },
    });
    expect(Buffer.from(row.tokenHash).equals(uploadTokenHash(token))).toBe(true);
    expect(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      token.slice(4),
    );
  });

  it('answers 404 for an unknown capability and 409 for a blocked one', async () => {
    const input = { filename: 'a.pdf', content_type: 'application/pdf', size_bytes: 10 };
    await expect(
      h.uploads.createSession({
        client_id: client,
        slug: 'nope',
        input,
        client_type: 'api',
        token_sha256: HASH,
      }),
    ).rejects.toMatchObject({ status: 404, message: 'unknown capability: nope' });
    await expect(
      h.uploads.createSession({
        client_id: client,
        slug: 'whois',
        input,
        client_type: 'api',
        token_sha256: HASH,
      }),
    ).rejects.toMatchObject({
      status: 409,
      message: 'capability whois cannot be quoted or run: its execution mode is describe_only (spec §2.1)',
    });
  });

  it('answers 422 for a file the capability cannot take', async () => {
    const call = (slug: string, input: { filename: string; content_type: string; size_bytes: number }) =>
      h.uploads.createSession({
        client_id: client,
        slug,
        input,
        client_type: 'api',
        token_sha256: HASH,
      });
    await expect(
      call('crt', { filename: 'a.pdf', content_type: 'application/pdf', size_bytes: 10 }),
    ).rejects.toMatchObject({ status: 422, message: 'capability crt takes no files' });
    await expect(
      call('pdf-extract-text', { filename: 'a.png', content_type: 'image/png', size_bytes: 10 }),
    ).rejects.toMatchObject({
      status: 422,
      message: 'input.content_type: capability pdf-extract-text accepts application/pdf, not image/png',
    });
    await expect(
      call('pdf-extract-text', {
        filename: 'a.pdf',
        content_type: 'application/pdf',
        size_bytes: PDF_MAX_BYTES + 1,
      }),
    ).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining(`over the ${PDF_MAX_BYTES} bytes`),
    });
    await expect(
      call('image-thumbnail', { filename: 'a.jpg', content_type: 'image/png', size_bytes: 10 }),
    ).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/^input\.filename: a\.jpg has the extension \.jpg/),
    });
    // The platform ceiling is part of the request schema: such a request never reaches the domain.
    await expect(
      call('image-thumbnail', {
        filename: 'a.png',
        content_type: 'image/png',
        size_bytes: UPLOAD_MAX_BYTES + 1,
      }),
    ).rejects.toThrow(/size_bytes/);
    expect(await h.db.prisma.uploadSession.count({ where: { slug: { in: ['crt', 'nope', 'whois'] } } })).toBe(
      0,
    );
  });

  it('shows an upload to its owner only (uploads.getUpload)', async () => {
    const { uploadId } = await pdfSession(Buffer.alloc(10));
    await expect(h.uploads.getUpload({ client_id: client, upload_id: uploadId })).resolves.toMatchObject({
      upload_id: uploadId,
      status: 'pending',
    });
    await expect(h.uploads.getUpload({ client_id: other, upload_id: uploadId })).rejects.toMatchObject({
      status: 404,
      message: `unknown upload: ${uploadId}`,
    });
  });
});

describe('PUT /internal/uploads/:upload_id', () => {
  it('stores a PDF with its SHA-256 and page count, once', async () => {
    const pdf = await makePdf(3);
    const { uploadId, token } = await pdfSession(pdf);
    const before = Date.now();
    const answer = await put(uploadId, token, pdf);
    expect(answer.status).toBe(200);
    const { upload } = answer.json();
    expect(upload).toMatchObject({
      upload_id: uploadId,
      status: 'complete',
      size_bytes: pdf.length,
      sha256: sha256(pdf),
      facts: { pages: 3 },
    });
    const deleteAfter = Date.parse(String(upload?.delete_after));
    expect(deleteAfter).toBeGreaterThanOrEqual(before + 86_400_000);
    expect(deleteAfter).toBeLessThan(Date.now() + 86_400_000 + 1_000);
    const stored = await h.store.get(`uploads/${uploadId}`);
    const chunks: Buffer[] = [];
    for await (const chunk of stored) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).equals(pdf)).toBe(true);

    const again = await put(uploadId, token, pdf);
    expect(again.status).toBe(409);
    expect(again.json()).toEqual({
      ok: false,
      error: `upload ${uploadId} is already complete; its token was single-use`,
    });
  });

  it('stores a PNG made with sharp with its width, height and format', async () => {
    const png = await makeImage(64, 48, 'png');
    const { uploadId, token } = await h.session(client, 'image-thumbnail', {
      filename: 'photo.png',
      content_type: 'image/png',
      size_bytes: png.length,
    });
    const answer = await put(uploadId, token, png, { 'content-type': 'image/png' });
    expect(answer.status).toBe(200);
    expect(answer.json().upload).toMatchObject({
      status: 'complete',
      sha256: sha256(png),
      facts: { width: 64, height: 48, format: 'png' },
    });
  });

  it('stores a CSV (Content-Type parameters ignored) with no facts', async () => {
    const csv = Buffer.from('name,city\nAda,Zürich\n');
    const { uploadId, token } = await h.session(client, 'csv-profile', {
      filename: 'people.csv',
      content_type: 'text/csv',
      size_bytes: csv.length,
    });
    const answer = await put(uploadId, token, csv, { 'content-type': 'Text/CSV; charset=utf-8' });
    expect(answer.status).toBe(200);
    expect(answer.json().upload).toMatchObject({ status: 'complete', facts: {} });
  });

  it('answers 409 once the session has expired', async () => {
    const pdf = await makePdf(1);
    const { uploadId, token } = await pdfSession(pdf);
    const expiresAt = new Date(Date.now() - 1_000);
    await h.db.prisma.uploadSession.update({ where: { id: uploadId }, data: { expiresAt } });
    const answer = await put(uploadId, token, pdf);
    expect(answer.status).toBe(409);
    expect(answer.json().error).toBe(
      `upload session ${uploadId} expired at ${expiresAt.toISOString()}; create a new session`,
    );
    expect(await h.store.stat(`uploads/${uploadId}`)).toBeNull();
  });

  it('answers 401 with a challenge for a missing token, an API key, or another upload’s token', async () => {
    const pdf = await makePdf(1);
    const mine = await pdfSession(pdf);
    const theirs = await pdfSession(pdf);
    const missing = await put(mine.uploadId, null, pdf);
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="uploads"');

    const apiKey = await put(mine.uploadId, generateApiKey().apiKey, pdf);
    expect(apiKey.status).toBe(401);
    expect(apiKey.headers['www-authenticate']).toBe('Bearer realm="uploads"');
    expect(apiKey.json().error).toBe(
      'this endpoint takes the upload token of the session (Authorization: Bearer upl_...), not an API key',
    );

    const wrong = await put(mine.uploadId, theirs.token, pdf);
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer realm="uploads"');
    expect(wrong.json().error).toBe(`upload token is not valid for upload ${mine.uploadId}`);

    // An unknown upload id gets the same words as a wrong token: nothing tells which ids exist.
    const unknownId = newClientId();
    const unknown = await put(unknownId, mine.token, pdf);
    expect(unknown.status).toBe(401);
    expect(unknown.json().error).toBe(`upload token is not valid for upload ${unknownId}`);
    expect(await status(mine.uploadId)).toBe('pending');
    expect(await status(theirs.uploadId)).toBe('pending');

    const malformed = await put('not-a-uuid', mine.token, pdf);
    expect([malformed.status, malformed.json().error]).toEqual([422, 'upload_id: must be a UUID']);
  });

  it('answers 415 for another Content-Type', async () => {
    const pdf = await makePdf(1);
    const { uploadId, token } = await pdfSession(pdf);
    const answer = await put(uploadId, token, pdf, { 'content-type': 'application/octet-stream' });
    expect(answer.status).toBe(415);
    expect(answer.json().error).toBe('Content-Type must be the declared application/pdf');
    expect(await status(uploadId)).toBe('pending');
  });

  it('answers 413 for a longer body and 422 for a shorter one, keeping nothing; the token may retry', async () => {
    const pdf = await makePdf(2);
    const { uploadId, token } = await pdfSession(pdf);
    const longer = Buffer.concat([pdf, Buffer.from('trailing bytes')]);

    // Announced by Content-Length: refused before a byte is read.
    const announcedLonger = await put(uploadId, token, longer);
    expect(announcedLonger.status).toBe(413);
    const announcedShorter = await put(uploadId, token, pdf.subarray(0, 100));
    expect(announcedShorter.status).toBe(422);

    // Chunked (no Content-Length): found while streaming.
    const url = `${h.server.url}/internal/uploads/${uploadId}`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/pdf' };
    const streamedLonger = await rawRequest(url, {
      method: 'PUT',
      headers,
      chunks: [longer.subarray(0, 500), longer.subarray(500)],
    });
    expect(streamedLonger.status).toBe(413);
    expect(streamedLonger.json().error).toBe(`body is longer than the declared size_bytes ${pdf.length}`);
    expect(await status(uploadId)).toBe('pending');

    const streamedShorter = await rawRequest(url, { method: 'PUT', headers, chunks: [pdf.subarray(0, 300)] });
    expect(streamedShorter.status).toBe(422);
    expect(streamedShorter.json().error).toBe(
      `body ended after 300 bytes; the session declared ${pdf.length}`,
    );
    expect(await status(uploadId)).toBe('pending');
    expect(await storedFiles(h.storeRoot)).not.toContain(`uploads/${uploadId}`);
    expect((await storedFiles(h.storeRoot)).filter((file) => file.startsWith('.tmp'))).toEqual([]);

    const retry = await put(uploadId, token, pdf);
    expect(retry.status).toBe(200);
  });

  it('answers 422 when the bytes are not the declared type, and for a PDF that does not parse', async () => {
    const png = await makeImage(8, 8, 'png');
    const { uploadId, token } = await h.session(client, 'pdf-extract-text', {
      filename: 'doc.pdf',
      content_type: 'application/pdf',
      size_bytes: png.length,
    });
    const mismatch = await put(uploadId, token, png);
    expect(mismatch.status).toBe(422);
    expect(mismatch.json().error).toBe('content is not application/pdf (it looks like image/png)');
    expect(await status(uploadId)).toBe('pending');
    expect(await h.store.stat(`uploads/${uploadId}`)).toBeNull();

    const broken = Buffer.from(`%PDF-1.7\n${'garbage '.repeat(40)}`);
    const second = await h.session(client, 'pdf-extract-text', {
      filename: 'broken.pdf',
      content_type: 'application/pdf',
      size_bytes: broken.length,
    });
    const unreadable = await put(second.uploadId, second.token, broken);
    expect(unreadable.status).toBe(422);
    expect(unreadable.json().error).toBe('content is not a readable PDF');
    expect(await h.store.stat(`uploads/${second.uploadId}`)).toBeNull();
    expect(await status(second.uploadId)).toBe('pending');
  });

  it('lets exactly one of two concurrent PUTs win', async () => {
    const pdf = await makePdf(4);
    // Held open: the second PUT arrives while the first is still streaming.
    const held = await pdfSession(pdf);
    const url = `${h.server.url}/internal/uploads/${held.uploadId}`;
    const headers = { authorization: `Bearer ${held.token}`, 'content-type': 'application/pdf' };
    let duringFirst: HttpAnswer | undefined;
    const first = rawRequest(url, {
      method: 'PUT',
      headers,
      chunks: [pdf.subarray(0, 200)],
      beforeEnd: async () => {
        await pollUntil(async () => (await status(held.uploadId)) === 'uploading');
        duringFirst = await put(held.uploadId, held.token, pdf);
        // The rest of the body, then end.
        await new Promise<void>((done) => setTimeout(done, 10));
      },
    });
    // rawRequest writes chunks then calls beforeEnd; the remainder is not sent, so the first PUT
    // ends short: what matters here is that the second was refused while the first held the claim.
    await first;
    expect(duringFirst?.status).toBe(409);
    expect(duringFirst?.json().error).toBe(`an upload of ${held.uploadId} is already in progress`);

    // A true race: both complete bodies at once.
    const raced = await pdfSession(pdf);
    const answers = await Promise.all([
      put(raced.uploadId, raced.token, pdf),
      put(raced.uploadId, raced.token, pdf),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409]);
    expect(await status(raced.uploadId)).toBe('complete');
  });

  it('keeps nothing and releases the claim when the client hangs up mid-body', async () => {
    const pdf = await makePdf(2);
    const { uploadId, token } = await pdfSession(pdf);
    await rawRequest(`${h.server.url}/internal/uploads/${uploadId}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/pdf',
        'content-length': String(pdf.length),
      },
      chunks: [pdf.subarray(0, 400)],
      beforeEnd: async () => {
        await pollUntil(async () => (await status(uploadId)) === 'uploading');
      },
      hangUp: true,
    });
    await pollUntil(async () => (await status(uploadId)) === 'pending');
    expect(await h.store.stat(`uploads/${uploadId}`)).toBeNull();
    await pollUntil(async () => (await storedFiles(h.storeRoot)).every((file) => !file.startsWith('.tmp')));
    expect((await put(uploadId, token, pdf)).status).toBe(200);
  });

  it('never writes an upload token to the log', async () => {
    expect(h.tokens.length).toBeGreaterThan(10);
    const text = h.log.text();
    expect(text).toMatch(/request completed/);
    for (const token of h.tokens) expect(text).not.toContain(token.slice(4));
    expect(text).not.toMatch(/upl_[0-9A-Za-z]{43}/);
    // Not even a redacted one: nothing tried to log a header or a token (the scrubber is the last guard).
    expect(text).not.toContain('[redacted]');
  });
});
