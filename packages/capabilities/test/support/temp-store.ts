import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { ResolvedFile } from '@svc/contracts';
import { FsObjectStore } from '@svc/storage';
import { createRunStorage, type RunStorage } from '../../src/kit/run-storage';

/**
 * A real fs object store in a temp directory, for tests of the file capabilities: uploads are put
 * where the uploads service puts them (`uploads/<id>`) and described as the orchestrator resolves
 * them; artifacts are read back from the store.
 */
export interface TempStore {
  readonly store: FsObjectStore;
  readonly dir: string;
  /** Stores `bytes` as a complete upload and answers its ResolvedFile. */
  upload(filename: string, contentType: string, bytes: Buffer | Readable): Promise<ResolvedFile>;
  /** The RunStorage of a new run id (returned too). */
  run(): { runId: string; storage: RunStorage };
  /** The bytes under `key`. */
  read(key: string): Promise<Buffer>;
  close(): Promise<void>;
}

export async function createTempStore(): Promise<TempStore> {
  const dir = await mkdtemp(path.join(tmpdir(), 'worker-objects-'));
  const store = new FsObjectStore({ root: dir });
  return {
    store,
    dir,
    async upload(filename, contentType, bytes) {
      const uploadId = randomUUID();
      const key = `uploads/${uploadId}`;
      const hash = createHash('sha256');
      let size = 0;
      const source = Buffer.isBuffer(bytes) ? Readable.from([bytes]) : bytes;
      const measured = source.map((chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.length;
        return chunk;
      });
      await store.put(key, measured, { contentType });
      return {
        upload_id: uploadId,
        filename,
        content_type: contentType,
        size_bytes: size,
        sha256: hash.digest('hex'),
        facts: {},
        storage_key: key,
      };
    },
    run() {
      const runId = randomUUID();
      return { runId, storage: createRunStorage(store, runId) };
    },
    read: async (key) => buffer(await store.get(key)),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** SHA-256 hex of bytes. */
export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
