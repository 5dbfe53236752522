import type { Readable } from 'node:stream';
import type { ProducedArtifact, ResolvedFile } from '@svc/contracts';
import { type ObjectStore, putMeasured } from '@svc/storage';

/**
 * What one run may do with object storage (design "Artifacts"): read its input files by their
 * `storage_key` (as streams, never whole) and write its outputs under `artifacts/<run_id>/<name>`.
 * Capability code depends on this, not on the store, so it stays free of keys and adapters.
 */
export interface RunStorage {
  /** The bytes of one of the run's input files (the job payload's `files[i]`). */
  openFile(file: Pick<ResolvedFile, 'storage_key'>): Promise<Readable>;
  /**
   * Streams `body` to the artifact `name` of this run and answers what to report: size and SHA-256
   * as the bytes passed (packages/storage putMeasured). More than `maxBytes` rejects with
   * SizeLimitError and leaves nothing stored. Writing the same name again (a retried attempt)
   * replaces the object.
   */
  writeArtifact(name: string, body: Readable, options: ArtifactWriteOptions): Promise<ProducedArtifact>;
  /**
   * Deletes artifacts this run wrote but will not report (it failed or was cancelled after writing
   * some): unreported objects are in no table, so no retention job would ever find them. Best
   * effort: a delete that fails is left for the operator (the error is swallowed).
   */
  discardArtifacts(artifacts: readonly Pick<ProducedArtifact, 'storage_key'>[]): Promise<void>;
}

export interface ArtifactWriteOptions {
  contentType: string;
  /** bytes: the most this artifact may hold. */
  maxBytes: number;
}

/** Object key of a run's artifact (the uploads service lists and serves it by this key). */
export function artifactKey(runId: string, name: string): string {
  return `artifacts/${runId}/${name}`;
}

/** A RunStorage for `runId` over `store`. */
export function createRunStorage(store: ObjectStore, runId: string): RunStorage {
  return {
    openFile: (file) => store.get(file.storage_key),
    async writeArtifact(name, body, options) {
      const key = artifactKey(runId, name);
      const measured = await putMeasured(store, key, body, {
        contentType: options.contentType,
        maxBytes: options.maxBytes,
      });
      return {
        name,
        content_type: options.contentType,
        size_bytes: measured.sizeBytes,
        sha256: measured.sha256,
        storage_key: key,
      };
    },
    async discardArtifacts(artifacts) {
      await Promise.all(artifacts.map((artifact) => store.delete(artifact.storage_key).catch(() => {})));
    },
  };
}
