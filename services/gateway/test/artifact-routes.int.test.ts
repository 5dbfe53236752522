import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { ArtifactManifestResponse } from '@svc/contracts';
import { pollUntil } from '@svc/testkit';
import { type AppHarness, CLIENT_ID, OTHER_CLIENT_ID, startAppHarness } from './support/app-harness';
import { bodyOf, rawRequest, within } from './support/raw-http';
import { errorOf } from './support/run-requests';

/**
 * GET /api/capability-runs/{run_id}/artifacts and GET /api/artifacts/{artifact_id}/download through
 * the app factory and the real orchestrator and uploads handlers (in process): the manifest for the
 * run's owner only (the run is read first), links on the public base; the download proxied to the
 * uploads service's internal port (behind a recorder a test may replace), streamed with its
 * headers, errors relayed, the client's hang-up passed on, and the link's signature kept out of
 * the log.
 */

const CRT_INPUT = { apex: 'example.com', limit: 100, include_first_seen: false };

describe('artifact routes (real orchestrator and uploads handlers)', () => {
  let app: AppHarness;
  const get = (path: string, apiKey = app.keys.artifactReader, headers: Record<string, string> = {}) =>
    app.fetch(path, { headers: { Authorization: `Bearer ${apiKey}`, ...headers } });

  /** A finished run of the harness's client with two artifacts, listed through the route. */
  async function listedRun(): Promise<{ runId: string; manifest: ArtifactManifestResponse }> {
    const runId = await app.runs.completedCrtRun(CLIENT_ID, CRT_INPUT);
    await app.runs.addArtifact(CLIENT_ID, runId, 'b-report.txt', Buffer.from('second file'));
    await app.runs.addArtifact(CLIENT_ID, runId, 'a-text.txt', Buffer.from('hello artifact'), 'text/plain');
    const response = await get(`/api/capability-runs/${runId}/artifacts`);
    expect(response.status).toBe(200);
    return { runId, manifest: ArtifactManifestResponse.parse(await response.json()) };
  }

  /** The path and query of a download link (the harness answers on its own origin). */
  const pathOf = (url: string) => url.replace(app.url, '');

  beforeAll(async () => {
    app = await startAppHarness();
  });
  afterAll(() => app.close());
  beforeEach(() => app.platform.rpc.clearFaults());
  afterEach(() => app.uploadsData.reset());

  describe('GET /api/capability-runs/{run_id}/artifacts', () => {
    it("lists the run's artifacts by name with links on the request origin; no-store", async () => {
      const { runId, manifest } = await listedRun();
      expect(manifest).toMatchObject({ ok: true, run_id: runId, status: 'completed', count: 2 });
      expect(manifest.artifacts.map((a) => a.name)).toEqual(['a-text.txt', 'b-report.txt']);
      for (const artifact of manifest.artifacts) {
        expect(
          artifact.download_url.startsWith(`${app.url}/api/artifacts/${artifact.artifact_id}/download?`),
        ).toBe(true);
      }
      expect(app.requests('uploads', 'listArtifacts').at(-1)).toEqual({
        client_id: CLIENT_ID,
        run_id: runId,
        base_url: app.url,
      });
      const again = await get(`/api/capability-runs/${runId}/artifacts`);
      expect(again.headers.get('cache-control')).toBe('no-store');
    });

    it('an empty manifest for a run without artifacts', async () => {
      const runId = await app.runs.completedCrtRun(CLIENT_ID, CRT_INPUT);
      const response = await get(`/api/capability-runs/${runId}/artifacts`);
      expect(ArtifactManifestResponse.parse(await response.json())).toMatchObject({
        count: 0,
        artifacts: [],
      });
    });

    it("another client's run is the same 404 as an unknown one, and its artifacts are never asked for", async () => {
      const foreign = await app.runs.completedCrtRun(OTHER_CLIENT_ID, CRT_INPUT);
      await app.runs.addArtifact(OTHER_CLIENT_ID, foreign, 'secret.txt', Buffer.from('not yours'));
      const before = app.requests('uploads', 'listArtifacts').length;
      const response = await get(`/api/capability-runs/${foreign}/artifacts`);
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toBe(`unknown run: ${foreign}`);
      expect(app.requests('uploads', 'listArtifacts').length).toBe(before);
    });

    it('422 malformed run id, 401 without a key, 403 without artifacts:read, 503 when the orchestrator is down', async () => {
      const malformed = await get('/api/capability-runs/nope/artifacts');
      expect(malformed.status).toBe(422);
      expect(await errorOf(malformed)).toMatch(/^run_id: /);
      expect((await app.fetch(`/api/capability-runs/${randomUUID()}/artifacts`)).status).toBe(401);
      const runner = await get(`/api/capability-runs/${randomUUID()}/artifacts`, app.keys.runner);
      expect(runner.status).toBe(403);
      expect(await errorOf(runner)).toBe('insufficient scope: this endpoint requires scope artifacts:read');
      app.platform.rpc.down('orchestrator');
      const down = await get(`/api/capability-runs/${randomUUID()}/artifacts`);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('2');
    });
  });

  describe('GET /api/artifacts/{artifact_id}/download', () => {
    it("streams the bytes with the uploads service's headers; only the listed ones are relayed", async () => {
      const { manifest } = await listedRun();
      const artifact = manifest.artifacts[0];
      if (artifact === undefined) throw new Error('no artifact');
      const before = app.uploadsData.requests.length;
      const response = await get(pathOf(artifact.download_url), app.keys.artifactReader, {
        'X-Request-Id': 'download-1',
      });
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).toString('utf8')).toBe('hello artifact');
      expect(Object.fromEntries(response.headers)).toMatchObject({
        'content-type': 'text/plain',
        'content-length': String('hello artifact'.length),
        'content-disposition': 'attachment; filename=a-text.txt',
        etag: `"${artifact.sha256}"`,
        'x-checksum-sha256': artifact.sha256,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      });
      expect(response.headers.get('x-internal-storage-key')).toBeNull();
      // The uploads service verifies the link for the caller's client (x-svc-client-id).
      const seen = app.uploadsData.requests[before];
      expect(seen?.url).toBe(
        `/internal/artifacts/${artifact.artifact_id}/content?${new URL(artifact.download_url).searchParams}`,
      );
      expect(seen?.headers).toMatchObject({ 'x-svc-client-id': CLIENT_ID, 'x-request-id': 'download-1' });
      expect(seen?.headers.authorization).toBeUndefined();
      // The signature is a credential: the request log keeps the URL without it.
      const line = await app.waitForLog(
        (l) => l.request_id === 'download-1' && l.msg === 'request completed',
      );
      expect(JSON.stringify(line)).toContain('signature=[redacted]');
      const signature = new URL(artifact.download_url).searchParams.get('signature') ?? '';
      expect(signature).toHaveLength(43);
      expect(app.rawLogs()).not.toContain(signature);
    });

    it('keeps the signature out of the log when its parameter name is percent-encoded', async () => {
      const { manifest } = await listedRun();
      const link = manifest.artifacts[0]?.download_url ?? '';
      const signature = new URL(link).searchParams.get('signature') ?? '';
      expect(signature).toHaveLength(43);
      // The query parser decodes names: `%73ignature` is `signature`, and the link works as listed.
      const response = await get(
        pathOf(link).replace('signature=', '%73ignature='),
        app.keys.artifactReader,
        {
          'X-Request-Id': 'download-encoded-name',
        },
      );
      expect(response.status).toBe(200);
      const line = await app.waitForLog(
        (l) => l.request_id === 'download-encoded-name' && l.msg === 'request completed',
      );
      expect(JSON.stringify(line)).toContain('%73ignature=[redacted]');
      expect(app.rawLogs()).not.toContain(signature);
    });

    it("relays 403 for another client's key or a tampered link, 404 for an unknown artifact", async () => {
      const { manifest } = await listedRun();
      const link = new URL(manifest.artifacts[0]?.download_url ?? '');
      const otherKey = app.issueKey(['artifacts:read'], OTHER_CLIENT_ID);
      const foreign = await get(pathOf(link.toString()), otherKey);
      expect(foreign.status).toBe(403);
      expect(await errorOf(foreign)).toBe('download link is not valid for this client');
      const tampered = new URL(link);
      tampered.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3600));
      expect((await get(pathOf(tampered.toString()))).status).toBe(403);
      // A link the uploads service signed for this client, to an artifact it does not have.
      const unknownId = randomUUID();
      const unknown = await get(
        `/api/artifacts/${unknownId}/download?${app.platform.signedDownloadQuery(unknownId, CLIENT_ID)}`,
      );
      expect(unknown.status).toBe(404);
      expect(await errorOf(unknown)).toBe('unknown artifact');
    });

    it.each([
      ['no query', ''],
      ['no signature', '?expires=1900000000'],
      ['a short signature', `?expires=1900000000&signature=${'a'.repeat(42)}`],
      ['a non-numeric expiry', `?expires=soon&signature=${'a'.repeat(43)}`],
      ['an unknown parameter', `?expires=1900000000&signature=${'a'.repeat(43)}&download=1`],
    ])('422 for %s, without contacting the uploads service', async (_what, query) => {
      const before = app.uploadsData.requests.length;
      const response = await get(`/api/artifacts/${randomUUID()}/download${query}`);
      expect(response.status).toBe(422);
      expect(await errorOf(response)).toMatch(/^query/);
      expect(app.uploadsData.requests.length).toBe(before);
    });

    it('401/403 before anything else: the link alone is not enough', async () => {
      const { manifest } = await listedRun();
      const path = pathOf(manifest.artifacts[0]?.download_url ?? '');
      const before = app.uploadsData.requests.length;
      expect((await app.fetch(path)).status).toBe(401);
      expect((await get(path, app.keys.uploader)).status).toBe(403);
      expect(app.uploadsData.requests.length).toBe(before);
    });

    it('streams: the client gets the first bytes while the uploads service is still sending', async () => {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const before = app.uploadsData.requests.length;
      app.uploadsData.handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '8' });
        res.write('first');
        void released.then(() => res.end('end'));
      };
      const path = `/api/artifacts/${randomUUID()}/download?expires=1900000000&signature=${'s'.repeat(43)}`;
      const exchange = rawRequest(`${app.url}${path}`, 'GET', {
        Authorization: `Bearer ${app.keys.artifactReader}`,
      });
      exchange.request.end();
      // A gateway that buffered the file would not answer before the upstream finished.
      const response = await within(exchange.response, 'the answer started before the upstream finished');
      expect(response.statusCode).toBe(200);
      const first = await within(
        new Promise<string>((resolve) => response.once('data', (chunk: Buffer) => resolve(String(chunk)))),
        'the first bytes reached the client before the upstream finished',
      );
      expect(first).toBe('first');
      expect(app.uploadsData.requests[before]?.aborted).toBe(false);
      release();
      expect((await bodyOf(response)).toString('utf8')).toBe('end');
    });

    it('a client that hangs up mid-download closes the upstream response', async () => {
      const before = app.uploadsData.requests.length;
      app.uploadsData.handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '1000000' });
        res.write(Buffer.alloc(1000));
        // …and never the rest: only the client's hang-up ends this exchange.
      };
      const path = `/api/artifacts/${randomUUID()}/download?expires=1900000000&signature=${'s'.repeat(43)}`;
      const exchange = rawRequest(`${app.url}${path}`, 'GET', {
        Authorization: `Bearer ${app.keys.artifactReader}`,
      });
      exchange.request.end();
      const response = await within(exchange.response, 'the answer started');
      await within(new Promise((resolve) => response.once('data', resolve)), 'the first bytes arrived');
      exchange.request.destroy();
      await pollUntil(() => app.uploadsData.requests[before]?.aborted === true, {
        what: 'the upstream response was closed',
      });
    });

    it('an upstream that breaks mid-file cuts the client connection instead of ending the body', async () => {
      app.uploadsData.handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '1000' });
        res.write(Buffer.alloc(100));
        setTimeout(() => res.destroy(), 20);
      };
      const path = `/api/artifacts/${randomUUID()}/download?expires=1900000000&signature=${'s'.repeat(43)}`;
      const exchange = rawRequest(`${app.url}${path}`, 'GET', {
        Authorization: `Bearer ${app.keys.artifactReader}`,
      });
      exchange.request.end();
      const response = await exchange.response;
      expect(response.statusCode).toBe(200);
      await expect(bodyOf(response)).rejects.toThrow();
    });
  });
});

describe('download with the uploads service down', () => {
  it('503 with Retry-After', async () => {
    const app = await startAppHarness();
    try {
      await app.uploadsData.close();
      const response = await app.fetch(
        `/api/artifacts/${randomUUID()}/download?expires=1900000000&signature=${'s'.repeat(43)}`,
        { headers: { Authorization: `Bearer ${app.keys.artifactReader}` } },
      );
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      expect(await errorOf(response)).toBe('uploads service is unavailable');
    } finally {
      await app.close().catch(() => undefined);
    }
  });

  it('503 with Retry-After when the uploads service takes the connection but never answers', async () => {
    // Accepts the request and stays silent: without a deadline the download would hang for good.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const app = await startAppHarness({
      uploadsData: { baseUrl: `http://127.0.0.1:${address.port}`, connectTimeoutMs: 300 },
    });
    try {
      const response = await within(
        app.fetch(`/api/artifacts/${randomUUID()}/download?expires=1900000000&signature=${'s'.repeat(43)}`, {
          headers: { Authorization: `Bearer ${app.keys.artifactReader}` },
        }),
        'an answer although the uploads service is silent',
        3_000,
      );
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('2');
      expect(await errorOf(response)).toBe('uploads service is unavailable');
    } finally {
      await app.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
