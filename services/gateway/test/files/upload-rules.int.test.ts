import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorResponse, UploadResponse, type UploadSessionResponse } from '@svc/contracts';
import { pollUntil, sleep, type TestApiKey } from '@svc/testkit';
import { postQuote } from '../quote-first/support';
import { makeCsv, makeImage, makePdf } from './sample-files';
import {
  artifactsOk,
  download,
  FILE_SCOPES,
  type FilesStack,
  postSession,
  putBytes,
  runToCompletion,
  sessionOk,
  startFilesStack,
  uploadOk,
} from './support';

/**
 * Every rejection of the upload order (docs/decisions.md U1–U8, A2) over HTTP against the real
 * platform, with short lifetimes so expiry and clean-up can be watched: sessions 12 s, unused
 * uploads 12 s, download links 5 s, clean-up every second. Ends by reading every log line of every
 * service for the upload tokens this suite was given (spec §5.4: never logged).
 */

// ms. Sessions and unused uploads live long enough for the steps a test takes inside them on a
// loaded 2-core machine (nine 20 MB PUTs on one session; an upload, then its quote and run, before
// the clean-up would delete it unused): at 5 s both were seen to expire mid-test under CI load.
const SESSION_TTL_MS = 12_000;
const RETENTION_MS = 12_000;
const LINK_TTL_MS = 5_000;
const PDF = { filename: 'doc.pdf', content_type: 'application/pdf' };

describe('upload sessions, PUT, quote and download links: the rules', () => {
  let files: FilesStack;
  let key: TestApiKey;
  const tokens: string[] = [];
  /** A session for `bytes`, its token remembered for the log check. */
  const session = async (
    bytes: Uint8Array,
    slug = 'pdf-extract-text',
    file = PDF,
  ): Promise<UploadSessionResponse> => {
    const created = await sessionOk(files.stack, key.apiKey, slug, file, bytes);
    tokens.push(created.upload_token);
    return created;
  };
  const errorOf = (json: unknown): string => ErrorResponse.parse(json).error;
  const getUpload = async (uploadId: string) => {
    const answer = await files.stack.fetch(`/api/capability-uploads/${uploadId}`, { apiKey: key.apiKey });
    expect(answer.status).toBe(200);
    return UploadResponse.parse(answer.json).upload;
  };

  beforeAll(async () => {
    files = await startFilesStack({
      UPLOAD_SESSION_TTL_MS: String(SESSION_TTL_MS),
      UPLOAD_RETENTION_MS: String(RETENTION_MS),
      ARTIFACT_LINK_TTL_MS: String(LINK_TTL_MS),
      UPLOAD_CLEANUP_INTERVAL_MS: '1000',
    });
    key = await files.stack.createApiKey({ scopes: FILE_SCOPES, clientName: 'rules', balanceUsd: '10' });
  }, 120_000);
  afterAll(() => files?.close());

  describe('session (§4.6): checked against describe before any byte moves', () => {
    const spec = { filename: 'doc.pdf', content_type: 'application/pdf', size_bytes: 1_000 };

    it.each([
      ['a capability that takes no files', 'pii-redact', spec, 422, /takes no files/],
      [
        'a MIME type the capability does not accept',
        'image-thumbnail',
        { filename: 'a.gif', content_type: 'image/gif', size_bytes: 10 },
        422,
        /image\/jpeg/,
      ],
      [
        'a size over the capability maximum',
        'pdf-extract-text',
        { ...spec, size_bytes: 30 * 1024 * 1024 },
        422,
        /26214400|25 MiB/,
      ],
      [
        'a size over the platform ceiling',
        'csv-profile',
        { filename: 'a.csv', content_type: 'text/csv', size_bytes: 300 * 1024 * 1024 },
        422,
        /size_bytes/,
      ],
      [
        'a file name with a path',
        'pdf-extract-text',
        { ...spec, filename: '../etc/doc.pdf' },
        422,
        /filename/,
      ],
      ['an extension of another type', 'pdf-extract-text', { ...spec, filename: 'photo.png' }, 422, /png/],
      ['an unknown capability', 'no-such-thing', spec, 404, /unknown capability/],
      ['a describe_only capability', 'whois', spec, 409, /describe_only/],
    ])('%s → %s', async (_label, slug, input, status, message) => {
      const answer = await postSession(files.stack, key.apiKey, slug, input);
      expect(answer.status).toBe(status);
      expect(errorOf(answer.json)).toMatch(message);
    });

    it('needs uploads:write', async () => {
      const reader = await files.stack.createApiKey({
        scopes: ['capabilities:quote'],
        clientName: 'no-uploads',
      });
      const answer = await postSession(files.stack, reader.apiKey, 'pdf-extract-text', spec);
      expect(answer.status).toBe(403);
      expect(errorOf(answer.json)).toMatch(/uploads:write/);
    });
  });

  describe('PUT (§4.7): exactly the declared bytes, once, with the upload token', () => {
    it('rejects a missing token, an API key and another upload’s token with 401', async () => {
      const pdf = await makePdf(['one']);
      const mine = await session(pdf);
      const other = await session(pdf);

      const none = await putBytes(files.stack, mine, pdf, { authorization: null });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const apiKey = await putBytes(files.stack, mine, pdf, { authorization: `Bearer ${key.apiKey}` });
      expect(apiKey.status).toBe(401);
      expect(errorOf(apiKey.json)).toMatch(/upload token/);
      const crossed = await putBytes(files.stack, mine, pdf, {
        authorization: `Bearer ${other.upload_token}`,
      });
      expect(crossed.status).toBe(401);
      expect(errorOf(crossed.json)).toBe(`upload token is not valid for upload ${mine.upload_id}`);
      expect((await getUpload(mine.upload_id)).status).toBe('pending');
    });

    it('refuses another Content-Type (415), a longer body (413), a shorter one and a content that is not a PDF (422), keeping nothing; then the same token still uploads once (200, then 409)', async () => {
      const pdf = await makePdf(['two']);
      const created = await session(pdf);
      const objectPath = join(files.stack.storageDir, 'uploads', created.upload_id);

      const wrongType = await putBytes(files.stack, created, pdf, { contentType: 'image/png' });
      expect(wrongType.status).toBe(415);
      const longer = await putBytes(files.stack, created, Buffer.concat([pdf, Buffer.from('extra')]));
      expect(longer.status).toBe(413);
      const shorter = await putBytes(files.stack, created, pdf.subarray(0, pdf.byteLength - 10));
      expect(shorter.status).toBe(422);
      expect(errorOf(shorter.json)).toMatch(/size_bytes|ended after/);
      const png = await makeImage('png', 40, 40);
      const disguised = Buffer.alloc(pdf.byteLength);
      png.copy(disguised);
      const notPdf = await putBytes(files.stack, created, disguised);
      expect(notPdf.status).toBe(422);
      expect(errorOf(notPdf.json)).toMatch(/not application\/pdf/);
      expect(existsSync(objectPath)).toBe(false);
      expect((await getUpload(created.upload_id)).status).toBe('pending');

      const stored = await putBytes(files.stack, created, pdf);
      expect(stored.status).toBe(200);
      expect(existsSync(objectPath)).toBe(true);
      const again = await putBytes(files.stack, created, pdf);
      expect(again.status).toBe(409);
      expect(errorOf(again.json)).toMatch(/single-use/);
    });

    it('stops reading a chunked body at the declared size (413) and one that ends early (422)', async () => {
      const pdf = await makePdf(['chunked']);
      const created = await session(pdf);
      const url = `${files.stack.gatewayUrl}${new URL(created.upload_url).pathname}`;
      const chunked = (bytes: Uint8Array) =>
        fetch(url, {
          method: 'PUT',
          headers: { authorization: `Bearer ${created.upload_token}`, 'content-type': 'application/pdf' },
          // A stream body has no Content-Length: the size is only known while it is read.
          body: new ReadableStream<Uint8Array>({
            start(controller) {
              for (let at = 0; at < bytes.byteLength; at += 1_000)
                controller.enqueue(bytes.subarray(at, at + 1_000));
              controller.close();
            },
          }),
          duplex: 'half',
          signal: AbortSignal.timeout(15_000),
        } as RequestInit & { duplex: 'half' });
      const longer = await chunked(Buffer.concat([pdf, Buffer.alloc(50_000)]));
      expect(longer.status).toBe(413);
      expect(errorOf(await longer.json())).toMatch(/longer than the declared/);
      const shorter = await chunked(pdf.subarray(0, 500));
      expect(shorter.status).toBe(422);
      expect(errorOf(await shorter.json())).toMatch(/ended after 500 bytes/);
      expect(existsSync(join(files.stack.storageDir, 'uploads', created.upload_id))).toBe(false);
      expect((await chunked(pdf)).status).toBe(200);
    });

    it('answers an early refusal of a large body with its own status, not a broken connection (503)', async () => {
      // 20 MB: far more than the socket buffers hold, so the refusal is sent while the body still flows.
      const big = Buffer.alloc(20_000_000, 'a,b\n');
      const created = await session(big, 'csv-profile', { filename: 'big.csv', content_type: 'text/csv' });
      for (let round = 0; round < 2; round++) {
        const wrongType = await putBytes(files.stack, created, big, { contentType: 'text/plain' });
        expect(wrongType.status).toBe(415);
        const noToken = await putBytes(files.stack, created, big, { authorization: null });
        expect(noToken.status).toBe(401);
        const apiKey = await putBytes(files.stack, created, big, { authorization: `Bearer ${key.apiKey}` });
        expect(apiKey.status).toBe(401);
      }
      // The accepted 20 MB is measured while it streams in (one CSV read per delimiter, U6): about
      // 9 s on an idle 2-core machine, so it gets more than the kit's 15 s per request under load.
      expect((await putBytes(files.stack, created, big, { timeoutMs: 75_000 })).status).toBe(200);
    }, 90_000);

    it('lets exactly one of two concurrent PUTs win', async () => {
      const csv = makeCsv(20_000);
      const created = await session(csv, 'csv-profile', { filename: 'race.csv', content_type: 'text/csv' });
      const answers = await Promise.all([
        putBytes(files.stack, created, csv),
        putBytes(files.stack, created, csv),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    });

    it('refuses an expired session (409) and the clean-up marks it expired', async () => {
      const pdf = await makePdf(['late']);
      const created = await session(pdf);
      await sleep(SESSION_TTL_MS + 500);
      const late = await putBytes(files.stack, created, pdf);
      expect(late.status).toBe(409);
      expect(errorOf(late.json)).toMatch(/expired/);
      await pollUntil(async () => (await getUpload(created.upload_id)).status === 'expired', {
        what: 'the session marked expired',
        intervalMs: 250,
      });
      expect((await getUpload(created.upload_id)).status).toBe('expired');
    }, 45_000);
  });

  describe('quote with uploads (rule 1, rule 4)', () => {
    it('refuses an upload that is not complete (409) and one made for another capability (422)', async () => {
      const pdf = await makePdf(['q']);
      const pending = await session(pdf);
      const notYet = await postQuote(files.stack, key.apiKey, 'pdf-extract-text', {
        input: { upload_id: pending.upload_id },
      });
      expect(notYet.status).toBe(409);
      expect(errorOf(notYet.json)).toMatch(/not complete/);

      const csv = makeCsv(10);
      const csvUpload = await uploadOk(
        files.stack,
        key.apiKey,
        'csv-profile',
        { filename: 'x.csv', content_type: 'text/csv' },
        csv,
      );
      const crossed = await postQuote(files.stack, key.apiKey, 'pdf-extract-text', {
        input: { upload_id: csvUpload.upload_id },
      });
      expect(crossed.status).toBe(422);
      expect(errorOf(crossed.json)).toMatch(/csv-profile/);
    });

    it('deletes an upload no run used once its retention passed', async () => {
      const pdf = await makePdf(['unused']);
      const created = await session(pdf);
      expect((await putBytes(files.stack, created, pdf)).status).toBe(200);
      const objectPath = join(files.stack.storageDir, 'uploads', created.upload_id);
      expect(existsSync(objectPath)).toBe(true);
      await pollUntil(() => !existsSync(objectPath), {
        what: 'the unused upload deleted',
        timeoutMs: RETENTION_MS + 10_000,
        intervalMs: 250,
      });
      expect(existsSync(objectPath)).toBe(false);
      expect((await getUpload(created.upload_id)).status).toBe('expired');
      const quote = await postQuote(files.stack, key.apiKey, 'pdf-extract-text', {
        input: { upload_id: created.upload_id },
      });
      expect(quote.status).toBe(409);
    }, 45_000);
  });

  describe('download links (rule 5)', () => {
    it('needs the key and artifacts:read; a tampered or expired link is 403', async () => {
      const pdf = await makePdf(['linked']);
      const created = await session(pdf);
      expect((await putBytes(files.stack, created, pdf)).status).toBe(200);
      const { run } = await runToCompletion(files.stack, key.apiKey, 'pdf-extract-text', {
        upload_id: created.upload_id,
      });
      // The run used the upload: the retention clean-up keeps it.
      const [artifact] = (await artifactsOk(files.stack, key.apiKey, run.run_id)).artifacts;
      if (artifact === undefined) throw new Error('no artifact');

      expect((await download(artifact.download_url, null)).status).toBe(401);
      const noScope = await files.stack.createApiKey({
        scopes: ['capabilities:run'],
        clientName: 'no-artifacts',
      });
      expect((await download(artifact.download_url, noScope.apiKey)).status).toBe(403);
      const tampered = new URL(artifact.download_url);
      const signature = tampered.searchParams.get('signature') ?? '';
      tampered.searchParams.set(
        'signature',
        `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      );
      const bad = await download(tampered.toString(), key.apiKey);
      expect(bad.status).toBe(403);
      const extended = new URL(artifact.download_url);
      extended.searchParams.set('expires', String(Number(extended.searchParams.get('expires')) + 3_600));
      expect((await download(extended.toString(), key.apiKey)).status).toBe(403);
      expect((await download(artifact.download_url, key.apiKey)).status).toBe(200);

      await sleep(LINK_TTL_MS + 1_500);
      const expired = await download(artifact.download_url, key.apiKey);
      expect(expired.status).toBe(403);
      expect(expired.text).toMatch(/expired/);
      // The upload a run used is still there after its retention.
      expect(existsSync(join(files.stack.storageDir, 'uploads', created.upload_id))).toBe(true);
    }, 60_000);
  });

  it('never wrote an upload token to any log', () => {
    expect(tokens.length).toBeGreaterThan(5);
    const services = ['gateway', 'uploads', 'orchestrator', 'worker', 'registry', 'wallet'] as const;
    const logs = services.map((name) => files.stack.logs(name)).join('\n');
    expect(logs.length).toBeGreaterThan(1_000);
    for (const token of tokens) expect(logs).not.toContain(token);
    // Not even its secret part alone.
    for (const token of tokens) expect(logs).not.toContain(token.slice(4));
  });
});
