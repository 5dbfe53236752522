import { randomUUID } from 'node:crypto';
import { uploadTokenHash } from '@svc/auth';
import { UploadResponse, UploadSessionResponse } from '@svc/contracts';
import { type AppHarness, CLIENT_ID, OTHER_CLIENT_ID, startAppHarness } from './support/app-harness';
import { errorOf, post } from './support/run-requests';

/**
 * POST /api/capabilities/{slug}/upload-session and GET /api/capability-uploads/{upload_id} through
 * the app factory and the real uploads service's handlers (in process): the session answer the
 * gateway builds (upload_url on the public base, Location, no-store), what is refused before any
 * RPC, errors passed through, and owner-only reads.
 */

const PDF_INPUT = { filename: 'report.pdf', content_type: 'application/pdf', size_bytes: 1234 };

describe('upload session and upload read routes (real uploads handlers)', () => {
  let app: AppHarness;
  const createSession = (body: unknown, apiKey = app.keys.uploader, slug = 'pdf-extract-text') =>
    post(app, `/api/capabilities/${slug}/upload-session`, { apiKey, body });

  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());
  beforeEach(() => app.platform.rpc.clearFaults());

  describe('POST /api/capabilities/{slug}/upload-session', () => {
    it('201 with the session: upload_url on the request origin, PUT headers, Location, no-store', async () => {
      const response = await createSession({ input: PDF_INPUT });
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = UploadSessionResponse.parse(await response.json());
      expect(body.upload_url).toBe(`${app.url}/api/capability-uploads/${body.upload_id}`);
      expect(response.headers.get('location')).toBe(`/api/capability-uploads/${body.upload_id}`);
      expect(body).toMatchObject({
        ok: true,
        method: 'PUT',
        headers: { 'Content-Type': 'application/pdf', 'Content-Length': '1234' },
        expires_at: body.upload.expires_at,
        upload: { upload_id: body.upload_id, status: 'pending', filename: 'report.pdf', size_bytes: 1234 },
      });
      // The RPC got the caller's client id, the parsed envelope (client_type defaulted) and the
      // SHA-256 of the token the client got, never the token itself (decisions U4).
      expect(app.requests('uploads', 'createSession').at(-1)).toEqual({
        client_id: CLIENT_ID,
        slug: 'pdf-extract-text',
        input: PDF_INPUT,
        client_type: 'api',
        token_sha256: uploadTokenHash(body.upload_token).toString('hex'),
      });
      expect(JSON.stringify(app.requests('uploads', 'createSession'))).not.toContain(
        body.upload_token.slice(4),
      );
      // The token is answered once and never logged.
      await app.waitForLog((line) => line.msg === 'request completed' && line.res !== undefined);
      expect(app.rawLogs()).not.toContain(body.upload_token);
    });

    it.each([
      [
        'a missing size',
        { input: { filename: 'a.pdf', content_type: 'application/pdf' } },
        /^input\.size_bytes: /,
      ],
      ['a path in the filename', { input: { ...PDF_INPUT, filename: '../a.pdf' } }, /^input\.filename: /],
      [
        'an uppercase MIME type',
        { input: { ...PDF_INPUT, content_type: 'Application/PDF' } },
        /^input\.content_type: /,
      ],
      [
        'a size over the platform ceiling',
        { input: { ...PDF_INPUT, size_bytes: 2 ** 40 } },
        /^input\.size_bytes: /,
      ],
      ['an unknown field', { input: PDF_INPUT, public: true }, /public/],
      ['an array', [PDF_INPUT], /^body: must be a JSON object/],
    ])('422 for %s, without an RPC', async (_what, body, message) => {
      const before = app.requests('uploads', 'createSession').length;
      const response = await createSession(body);
      expect(response.status).toBe(422);
      expect(await errorOf(response)).toMatch(message);
      expect(app.requests('uploads', 'createSession').length).toBe(before);
    });

    it('422 for a slug that is not a slug; 415 for a body that is not JSON', async () => {
      const badSlug = await createSession({ input: PDF_INPUT }, app.keys.uploader, 'Bad_Slug!');
      expect(badSlug.status).toBe(422);
      expect(await errorOf(badSlug)).toMatch(/^slug: /);
      const notJson = await post(app, '/api/capabilities/pdf-extract-text/upload-session', {
        apiKey: app.keys.uploader,
        rawBody: 'filename=a.pdf',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(notJson.status).toBe(415);
    });

    it('401 without a key, 403 (naming the scope) for a key without uploads:write; no RPC', async () => {
      const before = app.requests('uploads', 'createSession').length;
      const anonymous = await createSession({ input: PDF_INPUT }, '');
      expect(anonymous.status).toBe(401);
      const runner = await createSession({ input: PDF_INPUT }, app.keys.runner);
      expect(runner.status).toBe(403);
      expect(await errorOf(runner)).toBe('insufficient scope: this endpoint requires scope uploads:write');
      expect(runner.headers.get('cache-control')).toBe('no-store');
      expect(app.requests('uploads', 'createSession').length).toBe(before);
    });

    it("passes the uploads service's answers through: 422 takes no files, 404 unknown, 503 down", async () => {
      const crt = await createSession({ input: PDF_INPUT }, app.keys.uploader, 'crt');
      expect(crt.status).toBe(422);
      expect(await errorOf(crt)).toBe('capability crt takes no files');
      const unknown = await createSession({ input: PDF_INPUT }, app.keys.uploader, 'no-such-thing');
      expect(unknown.status).toBe(404);
      expect(await errorOf(unknown)).toBe('unknown capability: no-such-thing');
      const refused = await createSession({ input: { ...PDF_INPUT, content_type: 'image/png' } });
      expect(refused.status).toBe(422);
      expect(await errorOf(refused)).toMatch(/^input\.content_type: /);
      app.platform.rpc.down('uploads');
      const down = await createSession({ input: PDF_INPUT });
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('2');
    });
  });

  describe('links on the public base URL', () => {
    it('PUBLIC_BASE_URL, when set, is the base of upload_url', async () => {
      const behindProxy = await startAppHarness({ publicBaseUrl: 'https://api.example.com/svc' });
      try {
        const response = await post(behindProxy, '/api/capabilities/pdf-extract-text/upload-session', {
          apiKey: behindProxy.keys.uploader,
          body: { input: PDF_INPUT },
        });
        const body = UploadSessionResponse.parse(await response.json());
        expect(body.upload_url).toBe(`https://api.example.com/svc/api/capability-uploads/${body.upload_id}`);
      } finally {
        await behindProxy.close();
      }
    });

    it('forwarded protocol and host count only from a proxy TRUST_PROXY trusts', async () => {
      const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'files.example.org' };
      const untrusted = await post(app, '/api/capabilities/pdf-extract-text/upload-session', {
        apiKey: app.keys.uploader,
        body: { input: PDF_INPUT },
        headers: forwarded,
      });
      expect(UploadSessionResponse.parse(await untrusted.json()).upload_url).toMatch(
        new RegExp(`^${app.url}/api/capability-uploads/`),
      );
      const trusting = await startAppHarness({ trustProxy: 'loopback' });
      try {
        const trusted = await post(trusting, '/api/capabilities/pdf-extract-text/upload-session', {
          apiKey: trusting.keys.uploader,
          body: { input: PDF_INPUT },
          headers: forwarded,
        });
        expect(UploadSessionResponse.parse(await trusted.json()).upload_url).toMatch(
          /^https:\/\/files\.example\.org\/api\/capability-uploads\//,
        );
        // A forwarded host that could not be part of a URL breaks the link: 400, no session.
        const before = trusting.requests('uploads', 'createSession').length;
        const broken = await post(trusting, '/api/capabilities/pdf-extract-text/upload-session', {
          apiKey: trusting.keys.uploader,
          body: { input: PDF_INPUT },
          headers: { 'X-Forwarded-Host': 'evil.example/path?x=' },
        });
        expect(broken.status).toBe(400);
        expect(trusting.requests('uploads', 'createSession').length).toBe(before);
      } finally {
        await trusting.close();
      }
    });
  });

  describe('GET /api/capability-uploads/{upload_id}', () => {
    it("answers the owner's upload; another client's reads as unknown (404, same words)", async () => {
      const created = UploadSessionResponse.parse(await (await createSession({ input: PDF_INPUT })).json());
      const own = await app.fetch(`/api/capability-uploads/${created.upload_id}`, {
        headers: { Authorization: `Bearer ${app.keys.uploader}` },
      });
      expect(own.status).toBe(200);
      expect(own.headers.get('cache-control')).toBe('no-store');
      expect(UploadResponse.parse(await own.json()).upload).toEqual(created.upload);

      const otherKey = app.issueKey(['uploads:write'], OTHER_CLIENT_ID);
      const foreign = await app.fetch(`/api/capability-uploads/${created.upload_id}`, {
        headers: { Authorization: `Bearer ${otherKey}` },
      });
      const unknownId = randomUUID();
      const unknown = await app.fetch(`/api/capability-uploads/${unknownId}`, {
        headers: { Authorization: `Bearer ${otherKey}` },
      });
      expect([foreign.status, unknown.status]).toEqual([404, 404]);
      expect(await errorOf(foreign)).toBe(`unknown upload: ${created.upload_id}`);
      expect(await errorOf(unknown)).toBe(`unknown upload: ${unknownId}`);
    });

    it('422 for a malformed id; 401/403 without a key or the scope', async () => {
      const malformed = await app.fetch('/api/capability-uploads/not-a-uuid', {
        headers: { Authorization: `Bearer ${app.keys.uploader}` },
      });
      expect(malformed.status).toBe(422);
      expect(await errorOf(malformed)).toMatch(/^upload_id: /);
      expect((await app.fetch(`/api/capability-uploads/${randomUUID()}`)).status).toBe(401);
      const wrongScope = await app.fetch(`/api/capability-uploads/${randomUUID()}`, {
        headers: { Authorization: `Bearer ${app.keys.artifactReader}` },
      });
      expect(wrongScope.status).toBe(403);
    });
  });
});
