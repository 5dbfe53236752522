import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Client, ClientOptions } from 'minio';
import { assertObjectKey } from './object-key';
import { ObjectNotFoundError, type ObjectStore, type PutOptions } from './object-store';
import { readParts } from './s3-parts';
import { holdStreamErrors } from './stream-errors';

/** bytes: S3's smallest part of a multipart upload (all but the last). */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
/** bytes: part size by default; the memory one put holds at most (8 MiB, the AWS CLI's default). */
export const S3_DEFAULT_PART_BYTES = 8 * 1024 * 1024;

export interface S3ObjectStoreOptions {
  /** `http(s)://host[:port]` of the S3 API (MinIO, s3rver, AWS); no path. */
  endpoint: string;
  region: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  /** check() creates the bucket when it is missing (else it fails). */
  createBucket: boolean;
  /** bytes per multipart part, at least S3_MIN_PART_BYTES; default S3_DEFAULT_PART_BYTES. */
  partSizeBytes?: number;
}

/** Not `instanceof Error`: errors made by Node's internals fail that check inside jest's VM context. */
function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}

/** GET answers NoSuchKey (XML body), HEAD only a 404 (minio names it NotFound). */
function isNotFound(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'NoSuchKey' || code === 'NotFound';
}

async function ignoreErrors(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch {
    // best effort: cleanup after a failure that is already being reported
  }
}

/** minio's client options from an endpoint URL (it takes host, port and TLS separately). */
function clientEndpoint(endpoint: string): { endPoint: string; port: number; useSSL: boolean } {
  const url = new URL(endpoint);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RangeError('S3 endpoint must be an http:// or https:// URL');
  }
  if (url.pathname !== '/' && url.pathname !== '') {
    throw new RangeError('S3 endpoint must not have a path (path-style requests add /<bucket>/<key>)');
  }
  const useSSL = url.protocol === 'https:';
  return {
    endPoint: url.hostname.replace(/^\[(.*)\]$/, '$1'), // IPv6 literal without brackets
    port: url.port === '' ? (useSSL ? 443 : 80) : Number(url.port),
    useSSL,
  };
}

/**
 * The S3 adapter (docs/decisions.md U3) on the `minio` client, path-style (`/<bucket>/<key>`:
 * works with MinIO, s3rver and AWS alike, no DNS per bucket).
 *
 * put streams the body itself instead of calling minio's putObject with a stream, which falls
 * short in three ways (minio 8.0.7, checked against s3rver): a stream of known size up to 64 MiB is
 * read whole into memory; on the multipart path the body is `pipe`d, which does not forward its
 * error, so a failing body leaves putObject pending forever and its 'error' event unhandled (an
 * uncaught exception); and that path first lists the key's open uploads to resume them
 * (ListMultipartUploads, which s3rver does not implement).
 * Here the body is cut into parts (readParts: one part in memory at a time); a body that ends
 * within the first part goes up in one PutObject, a longer one as a multipart upload. On any
 * failure the multipart upload is aborted and the key removed, then the ORIGINAL error is rethrown
 * (the caller maps a size or content error of the body to its status).
 */
export class S3ObjectStore implements ObjectStore {
  readonly driver = 's3' as const;
  readonly bucket: string;
  readonly #clientOptions: ClientOptions;
  #client: Promise<Client> | undefined;
  readonly #region: string;
  readonly #createBucket: boolean;
  readonly #partSize: number;

  constructor(options: S3ObjectStoreOptions) {
    const partSize = options.partSizeBytes ?? S3_DEFAULT_PART_BYTES;
    if (!Number.isSafeInteger(partSize) || partSize < S3_MIN_PART_BYTES) {
      throw new RangeError(`S3ObjectStore: partSizeBytes must be at least ${S3_MIN_PART_BYTES}`);
    }
    this.bucket = options.bucket;
    this.#region = options.region;
    this.#createBucket = options.createBucket;
    this.#partSize = partSize;
    this.#clientOptions = {
      ...clientEndpoint(options.endpoint),
      region: options.region,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      pathStyle: true,
    };
  }

  /**
   * The minio client, made on first use: `minio` (with its XML, lodash and stream dependencies) is
   * loaded only by a process that talks to S3, not by every service that imports this package
   * (about 0.1-0.2 s of CPU at each start on this machine).
   */
  #s3(): Promise<Client> {
    this.#client ??= import('minio').then(({ Client: MinioClient }) => new MinioClient(this.#clientOptions));
    return this.#client;
  }

  /** `options.sizeBytes` is not needed: the body is cut into parts whatever its size. */
  async put(key: string, body: Readable, options: PutOptions): Promise<void> {
    // readParts listens from its first next(), which runs at once today; the guard keeps a body
    // failing at any moment after the hand-over from ever being an uncaught 'error' event.
    holdStreamErrors(body);
    const headers = { 'Content-Type': options.contentType };
    let uploadId: string | undefined;
    const parts = readParts(body, this.#partSize);
    try {
      assertObjectKey(key);
      const first = await parts.next();
      // readParts always yields a last part; `done` here only satisfies the iterator type.
      let part = first.done ? { data: Buffer.alloc(0), last: true } : first.value;
      if (part.last) {
        await (await this.#s3()).putObject(this.bucket, key, part.data, part.data.length, headers);
        return;
      }
      uploadId = await (await this.#s3()).initiateNewMultipartUpload(this.bucket, key, headers);
      const etags: { part: number; etag: string }[] = [];
      for (let partNumber = 1; ; partNumber += 1) {
        // Only the last part can be empty (a body of a whole number of parts): nothing to send.
        if (part.data.length > 0) {
          etags.push({
            part: partNumber,
            etag: await this.#uploadPart(key, uploadId, partNumber, part.data),
          });
        }
        if (part.last) break;
        const next = await parts.next();
        if (next.done) break;
        part = next.value;
      }
      await (await this.#s3()).completeMultipartUpload(this.bucket, key, uploadId, etags);
    } catch (err) {
      body.destroy();
      await ignoreErrors(() => parts.return(undefined));
      await this.#discard(key, uploadId);
      throw err;
    }
  }

  /** One UploadPart request, as minio's own multipart upload sends it (Content-MD5 checked by S3). */
  async #uploadPart(key: string, uploadId: string, partNumber: number, data: Buffer): Promise<string> {
    const response = await (await this.#s3()).makeRequestAsyncOmit(
      {
        method: 'PUT',
        bucketName: this.bucket,
        objectName: key,
        query: new URLSearchParams({ partNumber: String(partNumber), uploadId }).toString(),
        headers: { 'Content-MD5': createHash('md5').update(data).digest('base64') },
      },
      data,
      [200],
    );
    const etag = response.headers.etag;
    if (typeof etag !== 'string' || etag === '')
      throw new Error(`S3 answered part ${partNumber} without an ETag`);
    return etag.replace(/^"|"$/g, '');
  }

  /**
   * After a failed put: abort our multipart upload (else its parts are kept, and billed, until a
   * lifecycle rule removes them) and delete the key, in case the failure came after S3 had already
   * made the object (a lost CompleteMultipartUpload or PutObject answer). Errors are ignored: the
   * put's own error is the one to report.
   */
  async #discard(key: string, uploadId: string | undefined): Promise<void> {
    if (uploadId !== undefined) {
      await ignoreErrors(async () => (await this.#s3()).abortMultipartUpload(this.bucket, key, uploadId));
    }
    await ignoreErrors(async () => (await this.#s3()).removeObject(this.bucket, key));
  }

  async get(key: string): Promise<Readable> {
    assertObjectKey(key);
    try {
      return await (await this.#s3()).getObject(this.bucket, key);
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFoundError(key);
      throw err;
    }
  }

  async stat(key: string): Promise<{ sizeBytes: number } | null> {
    assertObjectKey(key);
    try {
      const info = await (await this.#s3()).statObject(this.bucket, key);
      return { sizeBytes: info.size };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    // S3 answers 204 for a key that does not exist: nothing to special-case.
    await (await this.#s3()).removeObject(this.bucket, key);
  }

  /** The bucket exists (readiness); with createBucket it is made when missing. */
  async check(): Promise<void> {
    if (await (await this.#s3()).bucketExists(this.bucket)) return;
    if (!this.#createBucket) {
      throw new Error(`S3 bucket ${this.bucket} does not exist (S3_CREATE_BUCKET is off)`);
    }
    try {
      await (await this.#s3()).makeBucket(this.bucket, this.#region);
    } catch (err) {
      // Another replica made it between our two calls.
      if (errorCode(err) !== 'BucketAlreadyOwnedByYou') throw err;
    }
  }
}
