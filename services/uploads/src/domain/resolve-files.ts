import type { ResolvedFile } from '@svc/contracts';
import type { UploadSession } from '@svc/db';
import { ConflictError, NotFoundError, ValidationError } from '@svc/errors';
import { assertContentTypeAccepted, assertFileCount } from './file-requirements';
import { nowOf, type UploadsDeps } from './settings';
import { toResolvedFile } from './upload-record';
import { fileRequirementsOf, keptWhenUsed } from './upload-targets';

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
 * nothing. A reserved target (upload-targets.ts) is checked against its own requirements; the vault
 * passes its extraction or document id as `runId`, and a used vault document is still deleted at
 * its retention (VG7).
 */
export async function resolveFiles(deps: UploadsDeps, request: ResolveFilesRequest): Promise<ResolvedFile[]> {
  const { slug, uploadIds, clientId } = request;
  const requirements = await fileRequirementsOf(deps.directory, slug);
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

/**
 * A complete upload whose retention is over, deleted now or at the next cleanup pass: one no run
 * used, or one of a target whose uploads are not kept when used.
 */
function isDue(row: UploadSession, now: Date): boolean {
  const retained = row.usedByRunId === null || !keptWhenUsed(row.slug);
  return retained && row.deleteAfter !== null && row.deleteAfter.getTime() <= now.getTime();
}

function deleted(row: UploadSession): ConflictError {
  const at = row.deleteAfter === null ? '' : ` at ${row.deleteAfter.toISOString()}`;
  // A used upload of a target not kept when used (a vault document) ends with its retention too.
  const why = row.usedByRunId === null ? 'no run used it within its retention' : 'its retention ended';
  return new ConflictError(`upload ${row.id} was deleted${at}: ${why}; upload the file again`);
}

/**
 * Marks the uploads used by `runId` (used_by_run_id, used_at, delete_after = null), in one
 * transaction. Each update is conditional on the retention not having run out, so it cannot race
 * the cleanup pass: whichever of the two updates the row first wins, and the other changes nothing
 * (then this run gets the 409 of a deleted upload). An upload of a target not kept when used keeps
 * its delete_after: the use is recorded, the retention stays.
 */
async function markUsed(deps: UploadsDeps, rows: readonly UploadSession[], runId: string, now: Date) {
  const unused = rows.filter((row) => row.usedByRunId === null);
  if (unused.length === 0) return;
  await deps.prisma.$transaction(async (tx) => {
    for (const row of unused) {
      const marked = await tx.uploadSession.updateMany({
        where: { id: row.id, status: 'complete', usedByRunId: null, deleteAfter: { gt: now } },
        data: { usedByRunId: runId, usedAt: now, ...(keptWhenUsed(row.slug) ? { deleteAfter: null } : {}) },
      });
      if (marked.count === 1) continue;
      // Another run may have marked it in the meantime (then it is kept: fine); else it was deleted.
      const current = await tx.uploadSession.findUnique({ where: { id: row.id } });
      if (current?.status !== 'complete' || current.usedByRunId === null) throw deleted(row);
    }
  });
}
