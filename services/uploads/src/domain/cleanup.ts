import type { Prisma } from '@svc/db';
import { nowOf, type UploadsDeps } from './settings';
import { SLUGS_NOT_KEPT_WHEN_USED } from './upload-targets';

/** Rows handled per kind and pass: bounds one pass's work; the next pass (a minute later) goes on. */
export const CLEANUP_BATCH = 500;

export interface CleanupResult {
  expired_sessions: number;
  deleted_uploads: number;
  deleted_artifacts: number;
}

/**
 * One retention pass (docs/decisions.md "Retention"), run by the repeatable `uploads.cleanup` job.
 * Idempotent and safe to run on several replicas at once: every change is a conditional update that
 * only one pass can win.
 * - sessions still `pending` past `expires_at` → `expired`; so are `uploading` claims that are stale
 *   (older than UPLOAD_PUT_TIMEOUT_MS) and past `expires_at` (their PUT's process died);
 * - complete uploads no run used, past `delete_after` → `expired`, storage_key null, bytes deleted;
 *   so are used uploads of a target not kept when used (vault documents, upload-targets.ts);
 * - artifacts past `expires_at` (ARTIFACT_RETENTION_DAYS) → bytes deleted, then the row.
 */
export async function cleanupPass(deps: UploadsDeps): Promise<CleanupResult> {
  const now = nowOf(deps);
  const staleBefore = new Date(now.getTime() - deps.settings.putTimeoutMs);
  const expired = await expireSessions(deps, {
    expiresAt: { lte: now },
    OR: [
      { status: 'pending' },
      { status: 'uploading', OR: [{ claimedAt: null }, { claimedAt: { lt: staleBefore } }] },
    ],
  });
  return {
    expired_sessions: expired,
    deleted_uploads: await deleteUnusedUploads(deps, now),
    deleted_artifacts: await deleteExpiredArtifacts(deps, now),
  };
}

async function expireSessions(deps: UploadsDeps, where: Prisma.UploadSessionWhereInput): Promise<number> {
  const due = await deps.prisma.uploadSession.findMany({ where, select: { id: true }, take: CLEANUP_BATCH });
  if (due.length === 0) return 0;
  const result = await deps.prisma.uploadSession.updateMany({
    where: { AND: [where, { id: { in: due.map((row) => row.id) } }] },
    data: { status: 'expired', claimedAt: null },
  });
  return result.count;
}

/**
 * The database first, then the bytes: the conditional update takes the upload out of use (a run
 * that marks it used at the same moment gets the 409 of a deleted upload, resolve-files.ts), and
 * only then is the object deleted. A delete that fails leaves an orphan object (logged), never an
 * upload whose bytes are gone.
 */
async function deleteUnusedUploads(deps: UploadsDeps, now: Date): Promise<number> {
  const where: Prisma.UploadSessionWhereInput = {
    status: 'complete',
    deleteAfter: { lte: now },
    OR: [{ usedByRunId: null }, { slug: { in: [...SLUGS_NOT_KEPT_WHEN_USED] } }],
  };
  const due = await deps.prisma.uploadSession.findMany({
    where,
    select: { id: true, storageKey: true },
    take: CLEANUP_BATCH,
  });
  let deleted = 0;
  for (const row of due) {
    const taken = await deps.prisma.uploadSession.updateMany({
      where: { ...where, id: row.id },
      data: { status: 'expired', storageKey: null },
    });
    if (taken.count !== 1) continue;
    deleted += 1;
    if (row.storageKey === null) continue;
    try {
      await deps.store.delete(row.storageKey);
    } catch (err) {
      deps.logger.error(
        { err, upload_id: row.id, key: row.storageKey },
        'expired upload: object not deleted',
      );
    }
  }
  return deleted;
}

/** The bytes first, then the row: a failed delete keeps the row, so the next pass tries again. */
async function deleteExpiredArtifacts(deps: UploadsDeps, now: Date): Promise<number> {
  const due = await deps.prisma.artifact.findMany({
    where: { expiresAt: { lte: now } },
    select: { id: true, storageKey: true },
    take: CLEANUP_BATCH,
  });
  let deleted = 0;
  for (const row of due) {
    try {
      await deps.store.delete(row.storageKey);
    } catch (err) {
      deps.logger.error(
        { err, artifact_id: row.id, key: row.storageKey },
        'expired artifact: object not deleted',
      );
      continue;
    }
    const removed = await deps.prisma.artifact.deleteMany({ where: { id: row.id } });
    deleted += removed.count;
  }
  return deleted;
}
