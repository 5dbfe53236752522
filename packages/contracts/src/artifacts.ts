import { z } from 'zod';
import { DateTime, Sha256Hex, Uuid } from './common';
import { RunState } from './execution';
import { ContentType, Filename } from './uploads';

/**
 * Artifacts (spec §2.5, §4.9, rule 5; docs/decisions.md A1–A5): files a run produced. Listed per run,
 * owner only; each carries a short-lived download link signed for the listing client and that
 * artifact. Following the link needs the same client's API key (`artifacts:read`).
 */

/** An artifact name: a file name, unique within its run (e.g. `text.txt`, `thumb-256x256.webp`). */
export const ArtifactName = Filename;

/** One entry of the manifest. */
export const Artifact = z.object({
  artifact_id: Uuid,
  run_id: Uuid,
  name: ArtifactName,
  content_type: ContentType,
  size_bytes: z.number().int().min(0),
  sha256: Sha256Hex,
  created_at: DateTime,
  /** GET with `Authorization: Bearer <API_KEY>` of the same client; signed, expires at `download_expires_at`. */
  download_url: z.url(),
  download_expires_at: DateTime,
});
export type Artifact = z.infer<typeof Artifact>;

/** Response of `GET /api/capability-runs/{run_id}/artifacts` (spec §4.9). */
export const ArtifactManifestResponse = z.object({
  ok: z.literal(true),
  run_id: Uuid,
  status: RunState,
  count: z.number().int().min(0),
  artifacts: z.array(Artifact),
});
export type ArtifactManifestResponse = z.infer<typeof ArtifactManifestResponse>;

/** Path of the download route. */
export const ArtifactIdParams = z.object({ artifact_id: Uuid }).strict();

/** Query of the download link: the expiry (unix seconds) and the signature over client, artifact and expiry. */
export const ArtifactDownloadQuery = z
  .object({
    expires: z.coerce.number().int().min(0),
    signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the signature of the link'),
  })
  .strict();
export type ArtifactDownloadQuery = z.infer<typeof ArtifactDownloadQuery>;

/**
 * An artifact a worker wrote to object storage, reported with a completed run (internal: the
 * orchestrator registers it with the uploads service before the run shows completed).
 */
export const ProducedArtifact = z.object({
  name: ArtifactName,
  content_type: ContentType,
  size_bytes: z.number().int().min(0),
  sha256: Sha256Hex,
  storage_key: z.string().min(1).max(512),
});
export type ProducedArtifact = z.infer<typeof ProducedArtifact>;
