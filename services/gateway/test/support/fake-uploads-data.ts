import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { uploadTokenHash } from '@svc/auth';
import type { UploadResponse } from '@svc/contracts';
import { type FakeArtifact, type FakeSession, type FakeUploads, fakeSignature } from './fake-uploads';

/**
 * A loopback HTTP server standing in for the uploads service's internal port (DATA_PORT), which the
 * gateway's PUT and download routes stream to. Every request is recorded as it happens (headers,
 * bytes received so far, whether the body ended or the connection was cut), so tests can check
 * that bytes flow before the client has finished (streaming, not buffering) and that a client's
 * abort reaches this side. The default handler mimics the real service closely enough for the
 * gateway (token check with its 401s, declared type and length, signed downloads); a test replaces
 * `handler` for anything else (slow answers, broken streams).
 */

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** Body bytes received so far. */
  received: number;
  /** The body arrived complete. */
  ended: boolean;
  /** The connection closed before the request body (or our response) was complete. */
  aborted: boolean;
}

export type DataHandler = (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => void;

export interface FakeUploadsData {
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Replace for one test; `reset()` puts the default back. */
  handler: DataHandler;
  reset(): void;
  close(): Promise<void>;
}

const CHALLENGE = 'Bearer realm="uploads"';

function answerJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

/** An error answer of the fake service: status, ErrorResponse message and extra headers. */
interface Refusal {
  readonly status: number;
  readonly error: string;
  readonly headers?: Record<string, string>;
}

function refuse(res: ServerResponse, refusal: Refusal): void {
  answerJson(res, refusal.status, { ok: false, error: refusal.error }, refusal.headers);
}

const unauthorized = (error: string): Refusal => ({
  status: 401,
  error,
  headers: { 'www-authenticate': CHALLENGE },
});

/** Why the real service would refuse this PUT before reading a byte, or null. */
function putRefusal(
  session: FakeSession | undefined,
  req: IncomingMessage,
  uploadId: string,
): Refusal | null {
  const authorization = req.headers.authorization ?? '';
  if (authorization === '')
    return unauthorized('missing upload token: send Authorization: Bearer <UPLOAD_TOKEN>');
  if (/^Bearer svc_(?:live|test)_/.test(authorization)) {
    return unauthorized(
      'this endpoint takes the upload token of the session (Authorization: Bearer upl_...), not an API key',
    );
  }
  const presented = /^Bearer (upl_\S+)$/.exec(authorization)?.[1];
  if (
    session === undefined ||
    presented === undefined ||
    uploadTokenHash(presented).toString('hex') !== session.tokenSha256
  ) {
    return unauthorized(`upload token is not valid for upload ${uploadId}`);
  }
  if (session.record.status === 'complete') {
    return { status: 409, error: `upload ${uploadId} is already complete; its token was single-use` };
  }
  if (req.headers['content-type'] !== session.record.content_type) {
    return { status: 415, error: `Content-Type must be the declared ${session.record.content_type}` };
  }
  return null;
}

/** The real service's PUT, reduced: token, type and length checks, then the bytes are counted and hashed. */
function putUpload(uploads: FakeUploads, req: IncomingMessage, res: ServerResponse, uploadId: string): void {
  const session = uploads.sessions.get(uploadId);
  const refusal = putRefusal(session, req, uploadId);
  if (session === undefined || refusal !== null) {
    refuse(res, refusal ?? unauthorized(`upload token is not valid for upload ${uploadId}`));
    return;
  }
  const declared = session.record;
  const hash = createHash('sha256');
  let bytes = 0;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    hash.update(chunk);
  });
  req.on('end', () => {
    if (bytes !== declared.size_bytes) {
      refuse(res, {
        status: bytes > declared.size_bytes ? 413 : 422,
        error: `body ended after ${bytes} bytes; the session declared ${declared.size_bytes}`,
      });
      return;
    }
    session.record = {
      ...declared,
      status: 'complete',
      sha256: hash.digest('hex'),
      facts: { pages: 1 },
      completed_at: new Date().toISOString(),
      delete_after: new Date(Date.now() + 86_400_000).toISOString(),
    };
    const body: UploadResponse = { ok: true, upload: session.record };
    answerJson(res, 200, body);
  });
}

/** Why the real service would refuse this download link for this client, or null. */
function downloadRefusal(
  stored: FakeArtifact | undefined,
  clientId: string,
  url: URL,
  artifactId: string,
): Refusal | null {
  const expires = Number(url.searchParams.get('expires'));
  if (stored === undefined) return { status: 404, error: 'unknown artifact' };
  const signature = url.searchParams.get('signature');
  if (signature !== fakeSignature(artifactId, clientId, expires) || stored.clientId !== clientId) {
    return { status: 403, error: 'download link is not valid for this client' };
  }
  if (expires * 1000 < Date.now()) {
    return {
      status: 403,
      error: `download link expired at ${new Date(expires * 1000).toISOString()}; list the artifacts again for a fresh link`,
    };
  }
  return null;
}

/** The real service's download, reduced: link check for the client in `x-svc-client-id`, then the bytes. */
function downloadArtifact(
  uploads: FakeUploads,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  artifactId: string,
): void {
  const stored = uploads.artifacts.get(artifactId);
  const refusal = downloadRefusal(stored, String(req.headers['x-svc-client-id'] ?? ''), url, artifactId);
  if (stored === undefined || refusal !== null) {
    refuse(res, refusal ?? { status: 404, error: 'unknown artifact' });
    return;
  }
  res.writeHead(200, {
    'content-type': stored.artifact.content_type,
    'content-length': String(stored.bytes.length),
    'content-disposition': `attachment; filename="${stored.artifact.name}"`,
    etag: `"${stored.artifact.sha256}"`,
    'x-checksum-sha256': stored.artifact.sha256,
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
    // Not on the relay list: must not reach the client.
    'x-internal-storage-key': `artifacts/${stored.artifact.run_id}/${stored.artifact.name}`,
  });
  res.end(stored.bytes);
}

export async function startFakeUploadsData(uploads: FakeUploads): Promise<FakeUploadsData> {
  const requests: SeenRequest[] = [];
  const defaultHandler: DataHandler = (req, res) => {
    const url = new URL(req.url ?? '/', 'http://uploads.internal');
    const put = /^\/internal\/uploads\/([^/]+)$/.exec(url.pathname);
    const download = /^\/internal\/artifacts\/([^/]+)\/content$/.exec(url.pathname);
    if (req.method === 'PUT' && put?.[1]) putUpload(uploads, req, res, put[1]);
    else if (req.method === 'GET' && download?.[1]) downloadArtifact(uploads, req, res, url, download[1]);
    else answerJson(res, 404, { ok: false, error: `no route for ${req.method} ${url.pathname}` });
  };
  const state = { handler: defaultHandler };
  const server = createServer((req, res) => {
    const seen: SeenRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      received: 0,
      ended: false,
      aborted: false,
    };
    requests.push(seen);
    req.on('data', (chunk: Buffer) => {
      seen.received += chunk.length;
    });
    req.on('end', () => {
      seen.ended = true;
    });
    res.on('close', () => {
      if (!seen.ended || !res.writableFinished) seen.aborted = true;
    });
    state.handler(req, res, seen);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake uploads server has no TCP port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    get handler() {
      return state.handler;
    },
    set handler(handler: DataHandler) {
      state.handler = handler;
    },
    reset: () => {
      state.handler = defaultHandler;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
