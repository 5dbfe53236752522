import { randomUUID } from 'node:crypto';
import type { UploadRecord, UploadSessionInput } from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
import { assertSessionFile } from './file-requirements';
import { nowOf, type UploadsDeps } from './settings';
import { toUploadRecord } from './upload-record';
import { sessionRequirements } from './upload-targets';

export interface CreateSessionRequest {
  clientId: string;
  slug: string;
  input: UploadSessionInput;
  /** SHA-256 of the upload token the gateway made and shows the client once (spec §2.4, U4). */
  tokenHash: Buffer;
}

/**
 * `POST /api/capabilities/{slug}/upload-session` (spec §4.6, rule 4; docs/decisions.md U1, U2):
 * describe the capability (404 unknown), refuse a blocked one (409) and a file it cannot take
 * (422), then store the session with the token's hash. A reserved target (`vault-document`,
 * upload-targets.ts) brings its own file requirements instead of a capability's. The token itself never reaches this
 * service: the gateway made it and keeps it to show the client once.
 */
export async function createSession(deps: UploadsDeps, request: CreateSessionRequest): Promise<UploadRecord> {
  const { slug, input } = request;
  assertSessionFile(slug, await sessionRequirements(deps.directory, slug), input);

  const now = nowOf(deps);
  const row = await deps.prisma.uploadSession.create({
    data: {
      id: randomUUID(),
      clientId: request.clientId,
      slug,
      filename: input.filename,
      contentType: input.content_type,
      sizeBytes: BigInt(input.size_bytes),
      // A plain Uint8Array copy: Prisma's Bytes type wants an ArrayBuffer-backed view.
      tokenHash: new Uint8Array(request.tokenHash),
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.settings.sessionTtlMs),
    },
  });
  return toUploadRecord(row);
}

/** The 404 of an upload that does not exist or is another client's (same words: nothing leaks). */
export function unknownUpload(uploadId: string): NotFoundError {
  return new NotFoundError(`unknown upload: ${uploadId}`);
}

/** `GET /api/capability-uploads/{upload_id}`: the owner's upload, 404 for anyone else. */
export async function getUpload(
  deps: Pick<UploadsDeps, 'prisma'>,
  clientId: string,
  uploadId: string,
): Promise<UploadRecord> {
  const row = await deps.prisma.uploadSession.findUnique({ where: { id: uploadId } });
  if (row === null || row.clientId !== clientId) throw unknownUpload(uploadId);
  return toUploadRecord(row);
}
