import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import { type FileMeter, type FileProbe, type MeasuredUpload, readBounded } from '@svc/capabilities';
import type { ObjectStore } from '@svc/storage';
import { z } from 'zod';

/**
 * The facts of an upload (docs/decisions.md U6, K17), measured by the probe its target declares
 * (`files.probe` of the capability, or a reserved target's own: upload-targets.ts). This file runs
 * whichever probe that is: it names no capability, no content type and no fact.
 */

/**
 * Facts as they are stored: a JSON object. What a probe recorded is checked against it before it
 * reaches the `facts` column (a probe that records anything else is a bug: 500, nothing stored).
 */
const StoredFacts = z.record(z.string(), z.json());
export type StoredFacts = z.infer<typeof StoredFacts>;

/** How one upload is measured: its body on the way to storage, then its facts once stored. */
export interface UploadMeasurement {
  /**
   * The body as it goes to storage: `body` itself, or piped through the probe's meter (errors of
   * the body reach the returned stream; a failed put stops reading the body).
   */
  through(body: Readable): Readable;
  /**
   * The facts, once every byte is stored under `key`: `{}` when the target has no probe for this
   * type. Rejects with the probe's ValidationError (422) for content it cannot read.
   */
  facts(store: ObjectStore, key: string): Promise<StoredFacts>;
}

const NO_FACTS: UploadMeasurement = { through: (body) => body, facts: async () => ({}) };

/**
 * The measurement of an upload by `probe` (none: no facts). Loads the probe's measuring code (its
 * libraries load on the first upload that needs them), so call it before anything is claimed.
 */
export async function measurementOf(
  probe: FileProbe | undefined,
  upload: MeasuredUpload,
): Promise<UploadMeasurement> {
  if (probe === undefined || !probe.contentTypes.includes(upload.contentType)) return NO_FACTS;
  const measure = (await probe.measure()).default;
  if (measure.reads === 'stored') {
    return {
      through: (body) => body,
      facts: async (store, key) => {
        // At most the declared size: the store holds exactly that (putMeasured checked it).
        const bytes = await readBounded(await store.get(key), upload.sizeBytes);
        return StoredFacts.parse(await measure.measure(bytes, upload));
      },
    };
  }
  const meter = measure.meter(upload);
  return {
    through: (body) => {
      const metered = new MeterStream(meter);
      pipeline(body, metered, () => {});
      return metered;
    },
    facts: async () => StoredFacts.parse(await meter.facts()),
  };
}

/**
 * A pass-through that feeds every byte to a meter on its way to storage: the bytes are measured as
 * they stream in, never read back. Its time counts as ours (backpressure), not the client's.
 */
export class MeterStream extends Transform {
  constructor(private readonly meter: Pick<FileMeter<unknown>, 'write'>) {
    super();
  }

  override _transform(chunk: unknown, encoding: BufferEncoding, callback: TransformCallback): void {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), encoding);
    this.meter.write(bytes);
    callback(null, bytes);
  }
}
