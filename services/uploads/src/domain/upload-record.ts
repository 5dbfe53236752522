import { FileFacts, type ResolvedFile, type UploadRecord } from '@svc/contracts';
import type { UploadSession } from '@svc/db';

/** The stored facts, or null when unset (or not the shape we wrote: never trusted blindly). */
export function factsOf(row: Pick<UploadSession, 'facts'>): FileFacts | null {
  if (row.facts === null) return null;
  const parsed = FileFacts.safeParse(row.facts);
  return parsed.success ? parsed.data : null;
}

/** An upload as its owner sees it (UploadRecord: never the token or its hash, never the storage key). */
export function toUploadRecord(row: UploadSession): UploadRecord {
  return {
    upload_id: row.id,
    slug: row.slug,
    filename: row.filename,
    content_type: row.contentType,
    size_bytes: Number(row.sizeBytes),
    status: row.status,
    sha256: row.sha256,
    facts: factsOf(row),
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    delete_after: row.deleteAfter?.toISOString() ?? null,
  };
}

/** A complete upload as quotes, runs and workers need it; null when the row is not a stored upload. */
export function toResolvedFile(row: UploadSession): ResolvedFile | null {
  if (row.status !== 'complete' || row.sha256 === null || row.storageKey === null) return null;
  return {
    upload_id: row.id,
    filename: row.filename,
    content_type: row.contentType,
    size_bytes: Number(row.sizeBytes),
    sha256: row.sha256,
    facts: factsOf(row) ?? {},
    storage_key: row.storageKey,
  };
}

/** Object-storage key of an upload's bytes (docs/decisions.md U3). */
export function uploadStorageKey(uploadId: string): string {
  return `uploads/${uploadId}`;
}
