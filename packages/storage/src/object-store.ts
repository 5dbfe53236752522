import type { Readable } from 'node:stream';

/**
 * Object storage (docs/decisions.md U3): one interface, two adapters — the local filesystem (the
 * embedded default, under `<DATA_DIR>/objects`) and S3 through the `minio` client (MinIO in
 * docker-compose, any S3 in production). Bytes always move as streams: no method takes or returns a
 * whole file in memory.
 *
 * Keys are `/`-separated relative paths of `[A-Za-z0-9._-]` segments (no `..`, no leading `/`),
 * e.g. `uploads/<upload_id>` or `artifacts/<run_id>/text.txt`; adapters reject anything else.
 */
export interface ObjectStore {
  readonly driver: 'fs' | 's3';
  /**
   * Stores `body` under `key`, replacing any object there, and resolves once the object is durable
   * and complete. If `body` errors (a size or content check failed, the client hung up) the promise
   * rejects with that error and NOTHING is left under `key` (no partial object, no temp file, no
   * dangling multipart upload) — a previous object under the key may be gone too.
   */
  put(key: string, body: Readable, options: PutOptions): Promise<void>;
  /** The object's bytes as a stream; rejects with ObjectNotFoundError when there is none. */
  get(key: string): Promise<Readable>;
  /** Size of the object, or null when there is none. */
  stat(key: string): Promise<{ sizeBytes: number } | null>;
  /** Deletes the object; no error when there is none. */
  delete(key: string): Promise<void>;
  /** Whether the store answers (readiness): the directory is writable / the bucket exists. */
  check(): Promise<void>;
}

export interface PutOptions {
  contentType: string;
  /** The exact size when known (lets S3 stream without buffering parts of unknown size). */
  sizeBytes?: number;
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no object under ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}
