import { readBounded, TooLargeError } from '@svc/capabilities';
import { type ResolvedFile, VAULT_DOCUMENT_UPLOAD_SLUG } from '@svc/contracts';
import { ConflictError, ValidationError } from '@svc/errors';
import { ObjectNotFoundError } from '@svc/storage';
import type { VaultDeps } from '../deps';

/** ms: reading one document or template from object storage (a stalled store must not hold the RPC). */
const READ_TIMEOUT_MS = 30_000;

export interface UploadedFile {
  file: ResolvedFile;
  bytes: Buffer;
}

/**
 * Resolves a `vault-document` upload of the client (uploads service: 404 unknown or another
 * client's, 409 incomplete or deleted, 422 made for another target) and reads its bytes whole — a
 * PDF needs random access — bounded by `maxBytesOf(content type)` (422 beyond; the uploads service
 * enforced the target's limit already, this is the second fence).
 *
 * No `run_id`: marking the upload used would keep its bytes for good (uploads `delete_after` =
 * null), and a document full of personal data must go with the upload retention instead
 * (docs/decisions.md VE2). The bytes are read at once, so nothing needs them kept.
 */
export async function readUploadedFile(
  deps: Pick<VaultDeps, 'uploads' | 'store'>,
  clientId: string,
  uploadId: string,
  maxBytesOf: (contentType: string) => number,
): Promise<UploadedFile> {
  const {
    files: [file],
  } = await deps.uploads.resolveFiles({
    client_id: clientId,
    slug: VAULT_DOCUMENT_UPLOAD_SLUG,
    upload_ids: [uploadId],
  });
  if (file === undefined) throw new Error(`uploads.resolveFiles answered no file for upload ${uploadId}`);
  const maxBytes = maxBytesOf(file.content_type);
  if (file.size_bytes > maxBytes) throw tooLarge(uploadId, file.content_type, maxBytes);
  try {
    const stream = await deps.store.get(file.storage_key);
    const bytes = await readBounded(stream, maxBytes, AbortSignal.timeout(READ_TIMEOUT_MS));
    return { file, bytes };
  } catch (err) {
    if (err instanceof TooLargeError) throw tooLarge(uploadId, file.content_type, maxBytes);
    // Deleted by the uploads retention between resolve and read.
    if (err instanceof ObjectNotFoundError) {
      throw new ConflictError(`upload ${uploadId} was deleted; upload the file again`);
    }
    throw err;
  }
}

function tooLarge(uploadId: string, contentType: string, maxBytes: number): ValidationError {
  return new ValidationError(`upload ${uploadId} (${contentType}) is larger than ${maxBytes} bytes`);
}

/** A text file's bytes as a string: UTF-8 (a leading BOM dropped), no NUL; 422 naming the rule only. */
export function decodeUtf8Text(bytes: Uint8Array, what: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ValidationError(`${what} is not valid UTF-8 text`);
  }
  if (text.includes('\u0000')) throw new ValidationError(`${what} contains a NUL character`);
  return text;
}
