import type { ResolvedFile } from '@svc/contracts';
import type { UploadSession } from '@svc/db';
import { ConflictError, NotFoundError, ValidationError } from '@svc/errors';
import { assertContentTypeAccepted, assertFileCount } from './file-requirements';
import { nowOf, type UploadsDeps } from './settings';
import { toResolvedFile } from './upload-record';

export interface ResolveFilesRequest {
  clientId: string;
  slug: string;
  /** The ids the input names (`filesOf(definition, input)`), in input order. */
  uploadIds: readonly string[];
  /** Set when a run is being recorded: its uploads are then marked used (kept while the run is). */
  runId?: string;
}

/**
 * `uploads.resolveFiles` (spec §4 rules 1, 4; docs/decisions.md U7): the uploads a quote or run
 * input names, checked one by one in input order — unknown or another client's 404; not complete
 * 409; expired or deleted 409; made for another capability 422 — then as a set against the
 * capability's file requirements (count 422, content types 422). With `runId` every upload is
 * marked used by that run (its bytes are kept from then on); a retry with the same run changes
 * nothing.
 */
export async function resolveFiles(deps: UploadsDeps, request: ResolveFilesRequest): Promise<ResolvedFile[]> {
  const { slug, uploadIds, clientId } = request;
  const record = await deps.directory.describe(slug);
  const rows = await deps.prisma.uploadSession.findMany({ where: { id: { in: [...uploadIds] } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const now = nowOf(deps);

  const seen = new Set<string>();
  const usable: UploadSession[] = [];
  const files: ResolvedFile[] = [];
  for (const id of uploadIds) {
    if (seen.has(id)) throw new ValidationError(`upload ${id} is named more than once`);
    seen.add(id);
    const row = byId.get(id);
    if (row === undefined || row.clientId !== clientId) throw new NotFoundError(`unknown upload_id: ${id}`);
    const file = usableFile(row, now);
    if (row.slug !== slug) {
      throw new ValidationError(`upload ${id} was made for capability ${row.slug}, not ${slug}`);
    }
    usable.push(row);
    files.push(file);
  }

  const requirements = record.file_requirements;
  assertFileCount(slug, requirements, files.length);
  for (const file of files) {
    assertContentTypeAccepted(slug, requirements, file.content_type, `upload ${file.upload_id}`);
  }
  if (request.runId !== undefined) await markUsed(deps, usable, request.runId, now);
  return files;
}

/** The upload as a ResolvedFile, or 409 when it holds no bytes a run could read. */
function usableFile(row: UploadSession, now: Date): ResolvedFile {
  if (row.status === 'pending' || row.status === 'uploading') {
    throw new ConflictError(`upload ${row.id} is not complete (status ${row.status}): PUT its bytes first`);
  }
  const file = toResolvedFile(row);
  if (row.status === 'expired' && row.completedAt === null) {
    throw new ConflictError(
      `upload ${row.id} expired at ${row.expiresAt.toISOString()} before its bytes arrived; create a new session`,
    );
  }
  if (file === null || isDue(row, now)) throw deleted(row);
  return file;
}

/** A complete upload no run used whose retention is over: deleted now or at the next cleanup pass. */
function isDue(row: UploadSession, now: Date): boolean {
  return row.usedByRunId === null && row.deleteAfter !== null && row.deleteAfter.getTime() <= now.getTime();
}

function deleted(row: UploadSession): ConflictError {
  const at = row.deleteAfter === null ? '' : ` at ${row.deleteAfter.toISOString()}`;
  return new ConflictError(
    `upload ${row.id} was deleted${at}: no run used it within its retention; upload the file again`,
  );
}

/**
 * Marks the uploads used by `runId` (used_by_run_id, used_at, delete_after = null), in one
 * transaction. Each update is conditional on the retention not having run out, so it cannot race
 * the cleanup pass: whichever of the two updates the row first wins, and the other changes nothing
 * (then this run gets the 409 of a deleted upload).
 */
async function markUsed(deps: UploadsDeps, rows: readonly UploadSession[], runId: string, now: Date) {
  const unused = rows.filter((row) => row.usedByRunId === null);
  if (unused.length === 0) return;
  await deps.prisma.$transaction(async (tx) => {
    for (const row of unused) {
      const marked = await tx.uploadSession.updateMany({
        where: { id: row.id, status: 'complete', usedByRunId: null, deleteAfter: { gt: now } },
        data: { usedByRunId: runId, usedAt: now, deleteAfter: null },
      });
      if (marked.count === 1) continue;
      // Another run may have marked it in the meantime (then it is kept: fine); else it was deleted.
      const current = await tx.uploadSession.findUnique({ where: { id: row.id } });
      if (current?.status !== 'complete' || current.usedByRunId === null) throw deleted(row);
    }
  });
}
