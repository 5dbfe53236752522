import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { UploadResponse, UploadSessionResponse } from '@svc/contracts';
import { onePagePdf, pollUntil } from '@svc/testkit';
import { type AppHarness, startAppHarness } from './support/app-harness';
import { bodyOf, rawRequest } from './support/raw-http';
import { errorOf, post } from './support/run-requests';

/**
 * PUT /api/capability-uploads/{upload_id} through the app factory, proxied to the uploads service's
 * internal port (its real server, in process, behind a recorder that a test may replace): the body
 * streams through (bytes reach the upstream before the client has finished), status, JSON body and
 * WWW-Authenticate are relayed, the gateway itself checks no API key, a client that hangs up cuts
 * the upstream request, an unreachable upstream is 503, and the token never reaches the log.
 */

describe('PUT /api/capability-uploads/{upload_id} (proxied to the uploads data port)', () => {
  let app: AppHarness;

  /** A session for `bytes`, created through the route (the uploads service keeps its token's hash). */
  async function session(bytes: number, contentType = 'application/pdf'): Promise<UploadSessionResponse> {
    const response = await post(app, '/api/capabilities/pdf-extract-text/upload-session', {
      apiKey: app.keys.uploader,
      body: { input: { filename: 'doc.pdf', content_type: contentType, size_bytes: bytes } },
    });
    expect(response.status).toBe(201);
    return UploadSessionResponse.parse(await response.json());
  }

  const put = (uploadId: string, body: Uint8Array | string, headers: Record<string, string>) =>
    app.fetch(`/api/capability-uploads/${uploadId}`, {
      method: 'PUT',
      headers,
      body: body as string | Uint8Array<ArrayBuffer>,
    });

  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());
  afterEach(() => app.uploadsData.reset());

  it('streams the bytes to the uploads service and answers its UploadResponse; the token is never logged', async () => {
    const bytes = onePagePdf('bytes for the proxy test');
    const created = await session(bytes.length);
    const before = app.uploadsData.requests.length;
    const response = await put(created.upload_id, bytes, {
      Authorization: `Bearer ${created.upload_token}`,
      'Content-Type': 'application/pdf',
      'X-Request-Id': 'put-req-1',
      Cookie: 'session=should-not-travel',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = UploadResponse.parse(await response.json());
    expect(body.upload).toMatchObject({
      upload_id: created.upload_id,
      status: 'complete',
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    // Forwarded: the token, the declared type and length, our request id; nothing else of the client's.
    const seen = app.uploadsData.requests[before];
    expect(seen).toMatchObject({
      method: 'PUT',
      url: `/internal/uploads/${created.upload_id}`,
      received: bytes.length,
      ended: true,
    });
    expect(seen?.headers).toMatchObject({
      authorization: `Bearer ${created.upload_token}`,
      'content-type': 'application/pdf',
      'content-length': String(bytes.length),
      'x-request-id': 'put-req-1',
    });
    expect(seen?.headers.cookie).toBeUndefined();

    const line = await app.waitForLog((l) => l.request_id === 'put-req-1' && l.msg === 'request completed');
    expect(line).toMatchObject({
      req: { method: 'PUT', url: `/api/capability-uploads/${created.upload_id}` },
      res: { statusCode: 200 },
    });
    expect(app.rawLogs()).not.toContain(created.upload_token);
    expect(app.rawLogs()).not.toContain(created.upload_token.slice(4));
  });

  it('relays the uploads service 401 with WWW-Authenticate; the gateway checks no API key here', async () => {
    const created = await session(10);
    const withKey = await put(created.upload_id, '0123456789', {
      Authorization: `Bearer ${app.keys.uploader}`,
      'Content-Type': 'application/pdf',
    });
    expect(withKey.status).toBe(401);
    expect(withKey.headers.get('www-authenticate')).toBe('Bearer realm="uploads"');
    expect(await errorOf(withKey)).toBe(
      'this endpoint takes the upload token of the session (Authorization: Bearer upl_...), not an API key',
    );
    // The key went to the uploads service as sent: the gateway neither verified nor dropped it.
    expect(app.uploadsData.requests.at(-1)?.headers.authorization).toBe(`Bearer ${app.keys.uploader}`);

    const missing = await put(created.upload_id, '0123456789', { 'Content-Type': 'application/pdf' });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="uploads"');
    expect(await errorOf(missing)).toMatch(/^missing upload token/);

    const other = await session(10);
    const wrongToken = await put(created.upload_id, '0123456789', {
      Authorization: `Bearer ${other.upload_token}`,
      'Content-Type': 'application/pdf',
    });
    expect(wrongToken.status).toBe(401);
    expect(await errorOf(wrongToken)).toBe(`upload token is not valid for upload ${created.upload_id}`);
    expect(app.rawLogs()).not.toContain(app.keys.uploader);
    expect(app.rawLogs()).not.toContain(other.upload_token);
  });

  it('relays 415, 413, 422 and 409 as the uploads service answers them', async () => {
    const pdf = onePagePdf('relayed answers');
    const created = await session(pdf.length);
    const auth = { Authorization: `Bearer ${created.upload_token}` };
    const wrongType = await put(created.upload_id, pdf, { ...auth, 'Content-Type': 'image/png' });
    expect(wrongType.status).toBe(415);
    expect(await errorOf(wrongType)).toBe('Content-Type must be the declared application/pdf');
    const longer = await put(created.upload_id, Buffer.concat([pdf, Buffer.from('AB')]), {
      ...auth,
      'Content-Type': 'application/pdf',
    });
    expect(longer.status).toBe(413);
    const shorter = await put(created.upload_id, pdf.subarray(0, 5), {
      ...auth,
      'Content-Type': 'application/pdf',
    });
    expect(shorter.status).toBe(422);
    expect(await errorOf(shorter)).toBe(
      `Content-Length 5 is shorter than the declared size_bytes ${pdf.length}`,
    );
    const done = await put(created.upload_id, pdf, { ...auth, 'Content-Type': 'application/pdf' });
    expect(done.status).toBe(200);
    const again = await put(created.upload_id, pdf, { ...auth, 'Content-Type': 'application/pdf' });
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toBe(
      `upload ${created.upload_id} is already complete; its token was single-use`,
    );
  });

  it('422 for a malformed upload id without contacting the uploads service; closes a body still coming', async () => {
    const before = app.uploadsData.requests.length;
    const exchange = rawRequest(`${app.url}/api/capability-uploads/not-a-uuid`, 'PUT', {
      'Content-Type': 'application/pdf',
      'Content-Length': String(1024 * 1024),
    });
    exchange.request.write(Buffer.alloc(1024));
    const response = await exchange.response;
    expect(response.statusCode).toBe(422);
    // The client announced a MiB and sent a KiB: close instead of reading the rest for nothing.
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse((await bodyOf(response)).toString('utf8'))).toEqual({
      ok: false,
      error: expect.stringMatching(/^upload_id: /),
    });
    exchange.request.destroy();
    expect(app.uploadsData.requests.length).toBe(before);
  });

  it('streams: the uploads service gets the first bytes before the client has sent the rest', async () => {
    const created = await session(2 * 65_536);
    const first = Buffer.alloc(65_536, 1);
    const second = Buffer.alloc(65_536, 2);
    const before = app.uploadsData.requests.length;
    app.uploadsData.handler = (req, res) => {
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, upload: { ...created.upload, status: 'complete' } }));
      });
    };
    const exchange = rawRequest(`${app.url}/api/capability-uploads/${created.upload_id}`, 'PUT', {
      Authorization: `Bearer ${created.upload_token}`,
      'Content-Type': 'application/pdf',
      'Content-Length': String(first.length + second.length),
    });
    exchange.request.write(first);
    // Only the first half is sent: a gateway that buffered the body would never get here.
    await pollUntil(() => (app.uploadsData.requests[before]?.received ?? 0) >= first.length, {
      what: 'the first 64 KiB reached the uploads service while the client was still sending',
    });
    expect(app.uploadsData.requests[before]?.ended).toBe(false);
    exchange.request.end(second);
    const response = await exchange.response;
    expect(response.statusCode).toBe(200);
    expect(UploadResponse.parse(JSON.parse((await bodyOf(response)).toString('utf8'))).upload.status).toBe(
      'complete',
    );
    expect(app.uploadsData.requests[before]).toMatchObject({ received: 2 * 65_536, ended: true });
  });

  it('a client that hangs up mid-body cuts the upstream request (the uploads service sees the abort)', async () => {
    const created = await session(1_000_000);
    const before = app.uploadsData.requests.length;
    app.uploadsData.handler = () => {
      // Never answers: only the client's hang-up can end this exchange.
    };
    const exchange = rawRequest(`${app.url}/api/capability-uploads/${created.upload_id}`, 'PUT', {
      Authorization: `Bearer ${created.upload_token}`,
      'Content-Type': 'application/pdf',
      'Content-Length': '1000000',
    });
    exchange.request.write(Buffer.alloc(10_000));
    await pollUntil(() => (app.uploadsData.requests[before]?.received ?? 0) >= 10_000, {
      what: 'bytes upstream',
    });
    exchange.request.destroy();
    await pollUntil(() => app.uploadsData.requests[before]?.aborted === true, {
      what: 'the upstream request was cut',
    });
    expect(app.uploadsData.requests[before]?.ended).toBe(false);
    // The request log records the abort (a warning: the client left, nothing of ours failed), without the token.
    const line = await app.waitForLog(
      (l) =>
        l.msg === 'request aborted before the response was complete' &&
        JSON.stringify(l).includes(created.upload_id),
    );
    expect(line.level).toBe(40);
    expect(app.rawLogs()).not.toContain(created.upload_token);
  });

  it('an answer that is not the contract is 500 "internal error" (the cause is logged)', async () => {
    const created = await session(3);
    app.uploadsData.handler = (req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>oops</html>');
      });
    };
    const response = await put(created.upload_id, 'abc', {
      Authorization: `Bearer ${created.upload_token}`,
      'Content-Type': 'application/pdf',
      'X-Request-Id': 'put-garbled',
    });
    expect(response.status).toBe(500);
    expect(await errorOf(response)).toBe('internal error');
    const line = await app.waitForLog(
      (l) => l.request_id === 'put-garbled' && l.msg === 'request failed with 500',
    );
    expect(JSON.stringify(line.err)).toContain('not JSON');
  });
});

describe('PUT /api/capability-uploads/{upload_id} with the uploads service down', () => {
  it('503 with Retry-After when nothing listens at UPLOADS_URL', async () => {
    // A port that was free a moment ago: connections to it are refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const address = probe.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const app = await startAppHarness({
      uploadsData: { baseUrl: `http://127.0.0.1:${address.port}`, connectTimeoutMs: 1_000 },
    });
    try {
      const response = await app.fetch(`/api/capability-uploads/${randomUUID()}`, {
        method: 'PUT',
        headers: { Authorization: 'Bearer upl_x', 'Content-Type': 'application/pdf' },
        body: 'abc',
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      expect(await errorOf(response)).toBe('uploads service is unavailable');
    } finally {
      await app.close();
    }
  });
});
