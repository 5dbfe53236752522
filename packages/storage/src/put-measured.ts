import { pipeline, type Readable } from 'node:stream';
import { type MeasureStreamOptions, measureStream } from './measure-stream';
import type { ObjectStore } from './object-store';
import { holdStreamErrors } from './stream-errors';

export interface PutMeasuredOptions extends MeasureStreamOptions {
  contentType: string;
}

export interface MeasuredObject {
  sizeBytes: number;
  /** Lowercase hex SHA-256 of the stored bytes. */
  sha256: string;
}

/**
 * Streams `source` through a MeasureStream into `store.put(key, ...)` and returns the size and
 * SHA-256 of what was stored. Rejects with the first error of the chain (SizeLimitError,
 * SizeMismatchError, onHead's error, the source's own error, or the store's), and then nothing is
 * kept under `key` (the ObjectStore.put contract).
 */
export async function putMeasured(
  store: ObjectStore,
  key: string,
  source: Readable,
  options: PutMeasuredOptions,
): Promise<MeasuredObject> {
  const { contentType, ...measureOptions } = options;
  const measure = measureStream(measureOptions);
  // pipeline, not pipe: an error on either side destroys the other, so the store sees the source's
  // error through `measure`, and the source stops being read when a size or head check fails. Its
  // callback has nothing to add: store.put below rejects with the same error.
  pipeline(source, measure, () => {});
  // The store may wait (mkdir) before reading `measure`; pipeline's own listener goes once it ends.
  holdStreamErrors(measure);
  const sizeHint = measureOptions.exactBytes;
  try {
    await store.put(
      key,
      measure,
      sizeHint === undefined ? { contentType } : { contentType, sizeBytes: sizeHint },
    );
  } catch (err) {
    // The store may have failed on its own (disk full, S3 down) without consuming `measure`:
    // destroying it also stops the source (through pipeline).
    measure.destroy();
    throw err;
  }
  return { sizeBytes: measure.bytes, sha256: measure.sha256 };
}
