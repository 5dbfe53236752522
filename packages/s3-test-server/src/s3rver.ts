import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * An in-process S3 (s3rver) on a free loopback port with its own temp directory, so suites can
 * run the object store and the platform on the S3 adapter: pass `env` to startTestStack's
 * services (or to objectStoreFromEnv) and call close() in afterAll.
 *
 * s3rver lacks two calls the S3 adapter relies on for cleanup; this wrapper adds what it needs:
 * AbortMultipartUpload (DELETE /<bucket>/<key>?uploadId=...: s3rver answers 405) removes the upload's
 * parts from s3rver's directory, and incompleteUploads() lists the multipart uploads still open
 * there (s3rver does not implement ListMultipartUploads).
 */

/** s3rver's fixed credentials (its dummy account): not a secret. */
const S3RVER_KEY = 'S3RVER';
const DEFAULT_BUCKET = 'capability-service';
const MAX_KEPT_REQUESTS = 1_000;
/** Upload ids s3rver makes: 16 random bytes in hex. Anything else is not one of its uploads. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** ms an idle keep-alive connection stays open (see the server below). */
const KEEP_ALIVE_TIMEOUT_MS = 30_000;

export interface StartS3rverOptions {
  /** Default `capability-service` (the S3_BUCKET default). */
  bucket?: string;
  /** Make the bucket before the first request (default true); false leaves it to check(). */
  createBucket?: boolean;
}

/**
 * The @svc/storage variables that select the S3 adapter on this server (strings: a process env).
 * A type alias, not an interface, so it is assignable to an env record (EnvSource).
 */
export type S3rverEnv = {
  STORAGE_DRIVER: 's3';
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_BUCKET: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
  S3_CREATE_BUCKET: 'true';
};

export interface S3rverRequest {
  method: string;
  /** Path and query as received, e.g. `/capability-service/uploads/x?uploadId=...`. */
  url: string;
}

export interface TestS3rver {
  readonly env: S3rverEnv;
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  readonly bucket: string;
  /** s3rver's data directory (removed by close()). */
  readonly directory: string;
  /** The last 1 000 requests, oldest first. */
  requests(): readonly S3rverRequest[];
  /** Ids of the bucket's multipart uploads that were neither completed nor aborted. */
  incompleteUploads(): Promise<string[]>;
  /** Stops the server (open connections included) and deletes its directory. */
  close(): Promise<void>;
}

function uploadIdOfAbort(req: IncomingMessage): string | null {
  if (req.method !== 'DELETE') return null;
  return new URL(req.url ?? '/', 'http://s3rver').searchParams.get('uploadId');
}

export async function startS3rver(options: StartS3rverOptions = {}): Promise<TestS3rver> {
  const bucket = options.bucket ?? DEFAULT_BUCKET;
  const directory = await mkdtemp(path.join(tmpdir(), 'svc-s3rver-'));
  // s3rver keeps each open multipart upload in this directory of the bucket (FilesystemStore).
  const uploadsDir = path.join(directory, bucket, '._S3rver_uploads');
  const s3rver = new S3rver({
    silent: true,
    directory,
    configureBuckets: options.createBucket === false ? [] : [{ name: bucket, configs: [] }],
  });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const seen: S3rverRequest[] = [];

  async function abortUpload(uploadId: string, res: ServerResponse): Promise<void> {
    if (!UPLOAD_ID.test(uploadId)) {
      res
        .writeHead(404, { 'content-type': 'application/xml' })
        .end('<Error><Code>NoSuchUpload</Code></Error>');
      return;
    }
    await rm(path.join(uploadsDir, uploadId), { recursive: true, force: true });
    res.writeHead(204).end();
  }

  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '' });
    if (seen.length > MAX_KEPT_REQUESTS) seen.shift();
    const uploadId = uploadIdOfAbort(req);
    if (uploadId === null) {
      handle(req, res);
      return;
    }
    req.resume();
    abortUpload(uploadId, res).catch(() => res.writeHead(500).end());
  });
  // Idle keep-alive connections stay open as long as S3's do (tens of seconds), not node's 5 s: the
  // client (node's keep-alive agent) reuses a pooled socket, and one the server closes at that very
  // moment fails the request with ECONNRESET. On a loaded machine the gap between two requests of
  // one put (hashing a part) can pass 5 s: seen once in CI, an 8/16 MiB put failing with
  // `read ECONNRESET`. Below headersTimeout (60 s), as node requires.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === 'string') throw new Error('s3rver: no TCP address after listen');
  const { port } = address;
  const endpoint = `http://127.0.0.1:${port}`;

  return {
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY: S3RVER_KEY,
      S3_SECRET_KEY: S3RVER_KEY,
      S3_CREATE_BUCKET: 'true',
    },
    endpoint,
    bucket,
    directory,
    requests: () => [...seen],
    async incompleteUploads() {
      try {
        return (await readdir(uploadsDir)).filter((name) => UPLOAD_ID.test(name));
      } catch {
        return []; // no upload was ever started in this bucket (or there is no bucket)
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(directory, { recursive: true, force: true });
    },
  };
}
