import type { Readable } from 'node:stream';
import type { Artifact, ProducedArtifact } from '@svc/contracts';
import type { Artifact as ArtifactRow } from '@svc/db';
import { NotFoundError, ValidationError } from '@svc/errors';
import { ObjectNotFoundError, objectKeyProblem } from '@svc/storage';
import { downloadUrl, type SignedLink, signLink, verifyLink } from './download-link';
import { nowOf, type UploadsDeps } from './settings';

const DAY_MS = 24 * 3_600_000;

/** Where a run's artifacts live in object storage: `artifacts/<run_id>/<name>` (docs/decisions.md A1). */
export function artifactKeyPrefix(runId: string): string {
  return `artifacts/${runId}/`;
}

/**
 * `uploads.registerArtifacts` (docs/decisions.md A2): records a completed run's artifacts before the
 * orchestrator shows the run completed. Idempotent: a repeated report (at-least-once delivery) lands
 * on the unique (run_id, name) and only refreshes the object's facts. A storage key outside the run's
 * own prefix is refused (422): a manifest entry must never point at another run's or an upload's bytes.
 */
export async function registerArtifacts(
  deps: UploadsDeps,
  request: {
    clientId: string;
    runId: string;
    artifacts: readonly ProducedArtifact[];
    /**
     * When the artifacts are deleted, if sooner than ARTIFACT_RETENTION_DAYS allows: a filled vault
     * document lives VAULT_DOCUMENT_RETENTION_HOURS (VG8). Set at the first registration; a repeated
     * one does not move it.
     */
    expiresAt?: Date;
  },
): Promise<number> {
  const prefix = artifactKeyPrefix(request.runId);
  for (const artifact of request.artifacts) {
    // A valid key as well: `artifacts/<run>/../<other run>/x` starts with the prefix but is not under it.
    if (!artifact.storage_key.startsWith(prefix) || objectKeyProblem(artifact.storage_key) !== null) {
      throw new ValidationError(`artifact ${artifact.name}: storage_key must be under ${prefix}`);
    }
  }
  const now = nowOf(deps);
  const expiresAt = artifactExpiry(now, deps.settings.artifactRetentionDays, request.expiresAt);
  await deps.prisma.$transaction(async (tx) => {
    for (const artifact of request.artifacts) {
      await tx.$executeRaw`
        INSERT INTO "uploads"."artifacts"
          ("run_id", "client_id", "name", "content_type", "size_bytes", "sha256", "storage_key", "created_at", "expires_at")
        VALUES (${request.runId}::uuid, ${request.clientId}::uuid, ${artifact.name}, ${artifact.content_type},
          ${BigInt(artifact.size_bytes)}, ${artifact.sha256}, ${artifact.storage_key}, ${now}::timestamptz,
          ${expiresAt}::timestamptz)
        ON CONFLICT ("run_id", "name") DO UPDATE SET
          "content_type" = EXCLUDED."content_type",
          "size_bytes" = EXCLUDED."size_bytes",
          "sha256" = EXCLUDED."sha256",
          "storage_key" = EXCLUDED."storage_key"`;
    }
  });
  return request.artifacts.length;
}

/** The earlier of the retention's end (none when ARTIFACT_RETENTION_DAYS is unset) and the one asked for. */
export function artifactExpiry(
  now: Date,
  retentionDays: number | undefined,
  asked: Date | undefined,
): Date | null {
  const retained = retentionDays === undefined ? null : new Date(now.getTime() + retentionDays * DAY_MS);
  if (asked === undefined) return retained;
  return retained !== null && retained.getTime() < asked.getTime() ? retained : asked;
}

function toArtifact(row: ArtifactRow, baseUrl: string, link: SignedLink): Artifact {
  return {
    artifact_id: row.id,
    run_id: row.runId,
    name: row.name,
    content_type: row.contentType,
    size_bytes: Number(row.sizeBytes),
    sha256: row.sha256,
    created_at: row.createdAt.toISOString(),
    download_url: downloadUrl(baseUrl, row.id, link),
    download_expires_at: new Date(link.expires * 1000).toISOString(),
  };
}

/**
 * `uploads.listArtifacts` (spec §4.9, rule 5; docs/decisions.md A3): the run's artifacts ordered by
 * name, each with a download link signed for `clientId` (the caller checked that it owns the run).
 * Artifacts past their retention are not listed (the cleanup pass deletes them).
 */
export async function listArtifacts(
  deps: UploadsDeps,
  request: { clientId: string; runId: string; baseUrl: string },
): Promise<Artifact[]> {
  const now = nowOf(deps);
  const rows = await deps.prisma.artifact.findMany({
    where: {
      runId: request.runId,
      clientId: request.clientId,
      OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
    },
    orderBy: { name: 'asc' },
  });
  const { linkSecret, linkTtlMs } = deps.settings;
  return rows.map((row) =>
    toArtifact(row, request.baseUrl, signLink(linkSecret, row.id, request.clientId, now, linkTtlMs)),
  );
}

export interface ArtifactDownload {
  artifact: ArtifactRow;
  body: Readable;
}

function unknownArtifact(): NotFoundError {
  return new NotFoundError('unknown artifact');
}

/**
 * `GET /internal/artifacts/:artifact_id/content` (docs/decisions.md A4): 403 unless the link was
 * signed for this artifact and client and has not expired; 404 when the artifact (or its bytes) is
 * gone; else its bytes as a stream.
 */
export async function openArtifactDownload(
  deps: UploadsDeps,
  request: { artifactId: string; clientId: string; link: SignedLink },
): Promise<ArtifactDownload> {
  const now = nowOf(deps);
  verifyLink(deps.settings.linkSecret, request.artifactId, request.clientId, request.link, now);
  const artifact = await deps.prisma.artifact.findUnique({ where: { id: request.artifactId } });
  if (artifact === null || artifact.clientId !== request.clientId) throw unknownArtifact();
  if (artifact.expiresAt !== null && artifact.expiresAt.getTime() <= now.getTime()) throw unknownArtifact();
  try {
    return { artifact, body: await deps.store.get(artifact.storageKey) };
  } catch (err) {
    if (err instanceof ObjectNotFoundError) throw unknownArtifact();
    throw err;
  }
}
