import type { Readable } from 'node:stream';
import { isUploadToken, uploadTokenMatches } from '@svc/auth';
import { type UploadRecord, Uuid } from '@svc/contracts';
import type { UploadSession } from '@svc/db';
import {
  AppError,
  ConflictError,
  PayloadTooLargeError,
  UnauthorizedError,
  ValidationError,
} from '@svc/errors';
import { putMeasured, SizeLimitError, SizeMismatchError } from '@svc/storage';
import { BodyIdleError } from './body-errors';
import { assertContentMatches } from './content-sniff';
import { measurementOf, type StoredFacts } from './file-probes';
import { nowOf, type UploadsDeps } from './settings';
import { toUploadRecord, uploadStorageKey } from './upload-record';
import { probeOf } from './upload-targets';

/**
 * `PUT /api/capability-uploads/{upload_id}` (spec §4.7, §5.4; docs/decisions.md U4), as the gateway
 * streams it to the internal server: authorize the upload token, check the session's state and the
 * request's headers, claim the session atomically (one PUT wins), stream the body through size,
 * SHA-256 and content checks into object storage, measure the file with the probe its target
 * declares (file-probes.ts), and complete. On any failure nothing is kept in storage and the claim
 * is released, so the same token may try again until the session expires.
 */

export interface PutUploadRequest {
  /** The path parameter as sent (validated here). */
  uploadId: string;
  /** The Authorization header: `Bearer upl_...`. Never logged, never echoed. */
  authorization: string | undefined;
  contentType: string | undefined;
  contentLength: string | undefined;
  /** The request body, streamed. */
  body: Readable;
}

const API_KEY_SHAPE = /^svc_(?:live|test)_/;
const BEARER = /^Bearer +(\S+) *$/i;

/** The 401 for a token that is not this upload's (or an unknown upload): the same words either way. */
function notValidFor(uploadId: string): UnauthorizedError {
  return new UnauthorizedError(`upload token is not valid for upload ${uploadId}`);
}

/** Step 1: the bearer token of the request, or 401 (missing, an API key, not an upload token). */
export function presentedToken(authorization: string | undefined, uploadId: string): string {
  if (authorization === undefined || authorization.trim() === '') {
    throw new UnauthorizedError(
      'missing upload token: send Authorization: Bearer upl_... (the upload_token of the session)',
    );
  }
  const token = BEARER.exec(authorization)?.[1];
  if (token !== undefined && API_KEY_SHAPE.test(token)) {
    throw new UnauthorizedError(
      'this endpoint takes the upload token of the session (Authorization: Bearer upl_...), not an API key',
    );
  }
  if (token === undefined || !isUploadToken(token)) throw notValidFor(uploadId);
  return token;
}

/** Content-Type without parameters, lowercased (`Application/PDF; x=y` → `application/pdf`). */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Step 2: 409 unless the session accepts a PUT now (a stale claim may be taken over). */
function assertAcceptsPut(row: UploadSession, now: Date, putTimeoutMs: number): void {
  if (row.status === 'complete') {
    throw new ConflictError(`upload ${row.id} is already complete; its token was single-use`);
  }
  if (row.status === 'expired' || row.expiresAt.getTime() <= now.getTime()) {
    throw new ConflictError(
      `upload session ${row.id} expired at ${row.expiresAt.toISOString()}; create a new session`,
    );
  }
  if (row.status === 'uploading' && !claimIsStale(row, now, putTimeoutMs)) throw inProgress(row.id);
}

function claimIsStale(row: UploadSession, now: Date, putTimeoutMs: number): boolean {
  return row.claimedAt === null || row.claimedAt.getTime() < now.getTime() - putTimeoutMs;
}

function inProgress(uploadId: string): ConflictError {
  return new ConflictError(`an upload of ${uploadId} is already in progress`);
}

/** Step 3: 415 for another Content-Type; 413/422 for a Content-Length other than size_bytes. */
function assertHeaders(
  row: UploadSession,
  contentType: string | undefined,
  contentLength: string | undefined,
) {
  const declared = row.contentType;
  if (mediaType(contentType) !== declared) {
    throw new AppError(415, `Content-Type must be the declared ${declared}`);
  }
  if (contentLength === undefined) return;
  const size = Number(row.sizeBytes);
  const length = /^\d+$/.test(contentLength.trim()) ? Number(contentLength.trim()) : Number.NaN;
  if (Number.isNaN(length)) throw new ValidationError('Content-Length must be a number of bytes');
  if (length > size) {
    throw new PayloadTooLargeError(
      `body is longer than the declared size_bytes ${size} (Content-Length ${length})`,
    );
  }
  if (length < size) {
    throw new ValidationError(`Content-Length ${length} is shorter than the declared size_bytes ${size}`);
  }
}

/** ms: the most a PUT's claim is kept short of UPLOAD_PUT_TIMEOUT_MS (clock skew, rename, fsync). */
const PUT_DEADLINE_MARGIN_MS = 30_000;

/**
 * ms after its claim that a PUT stops reading its body: a margin before the claim turns stale (a
 * tenth of UPLOAD_PUT_TIMEOUT_MS, at most PUT_DEADLINE_MARGIN_MS), so the bytes of a PUT still
 * streaming are never stored once another PUT may have taken the claim over.
 */
export function putDeadlineMs(putTimeoutMs: number): number {
  return putTimeoutMs - Math.min(PUT_DEADLINE_MARGIN_MS, Math.floor(putTimeoutMs / 10));
}

/** The body did not arrive in full within putDeadlineMs of the claim. */
class PutDeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`upload body not complete within ${deadlineMs} ms`);
    this.name = 'PutDeadlineError';
  }
}

/** The stream's size failures as the client's errors; anything else unchanged. */
function putError(err: unknown, size: number): unknown {
  if (err instanceof PutDeadlineError) {
    return new AppError(
      408,
      `the body did not arrive within ${Math.round(err.deadlineMs / 1000)} s; PUT it again with the same token`,
    );
  }
  if (err instanceof BodyIdleError) {
    return new AppError(
      408,
      `the body made no progress for ${Math.round(err.idleMs / 1000)} s; PUT it again with the same token`,
    );
  }
  if (err instanceof SizeLimitError) {
    return new PayloadTooLargeError(`body is longer than the declared size_bytes ${size}`);
  }
  if (err instanceof SizeMismatchError) {
    return new ValidationError(`body ended after ${err.received} bytes; the session declared ${size}`);
  }
  return err;
}

/** Steps 1–7; resolves with the complete upload, rejects with the AppError to answer. */
export async function redeemUpload(deps: UploadsDeps, request: PutUploadRequest): Promise<UploadRecord> {
  const { uploadId } = request;
  const token = presentedToken(request.authorization, uploadId);
  // A malformed id is the client's bug, not an unknown upload (docs/decisions.md D2).
  const id = Uuid.safeParse(uploadId);
  if (!id.success) throw new ValidationError('upload_id: must be a UUID');
  const row = await deps.prisma.uploadSession.findUnique({ where: { id: id.data } });
  // Compared even when there is no row (against a dummy): the timing does not tell whether it exists.
  if (!uploadTokenMatches(token, row?.tokenHash ?? null) || row === null) throw notValidFor(uploadId);

  const { putTimeoutMs } = deps.settings;
  assertAcceptsPut(row, nowOf(deps), putTimeoutMs);
  assertHeaders(row, request.contentType, request.contentLength);
  // Before the claim: loading the probe's measuring code (on the first upload it measures) is a
  // step of ours that may fail, and must not hold a claim meanwhile.
  const measurement = await measurementOf(probeOf(row.slug), {
    contentType: row.contentType,
    sizeBytes: Number(row.sizeBytes),
  });
  // The client may have hung up (or stalled past the idle time) while we read the session: no claim
  // for a body that can no longer arrive.
  if (request.body.errored !== null) throw putError(request.body.errored, Number(row.sizeBytes));

  const claimedAt = await claim(deps, row.id);
  if (claimedAt === null) {
    // Lost the race (or the state moved since the read): answer with what it is now.
    const current = await deps.prisma.uploadSession.findUnique({ where: { id: row.id } });
    if (current !== null) assertAcceptsPut(current, nowOf(deps), putTimeoutMs);
    throw inProgress(row.id);
  }
  const release = () => releaseClaim(deps, row.id, claimedAt);

  const size = Number(row.sizeBytes);
  const key = uploadStorageKey(row.id);
  let sha256: string;
  let facts: StoredFacts;
  // Give up before our claim turns stale: once another PUT may take it over, a body of ours that
  // still arrived would be written over the upload the other PUT completed.
  const deadlineMs = putDeadlineMs(putTimeoutMs);
  const deadline = setTimeout(() => {
    // A body that has ended is being written out (rename, fsync): that finishes within the margin.
    if (!request.body.readableEnded && !request.body.destroyed) {
      request.body.destroy(new PutDeadlineError(deadlineMs));
    }
  }, deadlineMs);
  // A probe that needs every byte measures them on the way to storage (never read back); through a
  // pipeline, so the body's errors (a hang-up, the idle cut, the deadline) reach the store, and a
  // failed put stops reading the body.
  const body = measurement.through(request.body);
  try {
    ({ sha256 } = await putMeasured(deps.store, key, body, {
      contentType: row.contentType,
      maxBytes: size,
      exactBytes: size,
      // The head is the whole body when the body is no longer than it.
      onHead: (head) => assertContentMatches(head, row.contentType, head.length >= size),
    }));
  } catch (err) {
    await release();
    throw putError(err, size);
  } finally {
    clearTimeout(deadline);
  }
  try {
    facts = await measurement.facts(deps.store, key);
  } catch (err) {
    await deleteQuietly(deps, key);
    await release();
    throw err;
  }

  const completedAt = nowOf(deps);
  const completed = await deps.prisma.uploadSession.updateMany({
    where: { id: row.id, status: 'uploading', claimedAt },
    data: {
      status: 'complete',
      sha256,
      facts,
      storageKey: key,
      completedAt,
      deleteAfter: new Date(completedAt.getTime() + deps.settings.retentionMs),
    },
  });
  // Our claim was taken over as stale while we streamed (a PUT past UPLOAD_PUT_TIMEOUT_MS): the
  // other PUT owns the key now, so nothing is deleted here.
  if (completed.count !== 1) throw inProgress(row.id);
  const stored = await deps.prisma.uploadSession.findUniqueOrThrow({ where: { id: row.id } });
  return toUploadRecord(stored);
}

/**
 * Step 4: `UPDATE … SET status='uploading', claimed_at=now WHERE id AND expires_at > now AND
 * (status='pending' OR a stale 'uploading' claim)`. One statement: PostgreSQL re-checks the WHERE
 * on the row it locks, so of concurrent PUTs exactly one matches. Returns the claim's time (our
 * claim's identity for release and completion), or null when another PUT holds it.
 */
async function claim(deps: UploadsDeps, uploadId: string): Promise<Date | null> {
  const now = nowOf(deps);
  const staleBefore = new Date(now.getTime() - deps.settings.putTimeoutMs);
  const claimed = await deps.prisma.uploadSession.updateMany({
    where: {
      id: uploadId,
      expiresAt: { gt: now },
      OR: [{ status: 'pending' }, { status: 'uploading', claimedAt: { lt: staleBefore } }],
    },
    data: { status: 'uploading', claimedAt: now },
  });
  return claimed.count === 1 ? now : null;
}

/** Back to pending (same token may retry) unless the claim is no longer ours; never throws. */
async function releaseClaim(deps: UploadsDeps, uploadId: string, claimedAt: Date): Promise<void> {
  try {
    await deps.prisma.uploadSession.updateMany({
      where: { id: uploadId, status: 'uploading', claimedAt },
      data: { status: 'pending', claimedAt: null },
    });
  } catch (err) {
    // A claim left behind turns stale after UPLOAD_PUT_TIMEOUT_MS and can be taken over then.
    deps.logger.error({ err, upload_id: uploadId }, 'upload claim not released');
  }
}

async function deleteQuietly(deps: UploadsDeps, key: string): Promise<void> {
  try {
    await deps.store.delete(key);
  } catch (err) {
    deps.logger.error({ err, key }, 'refused upload not deleted from storage');
  }
}
