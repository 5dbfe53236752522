import {
  acceptsContentType,
  type FileRequirements,
  UPLOAD_MAX_BYTES,
  type UploadSessionInput,
} from '@svc/contracts';
import { ValidationError } from '@svc/errors';
import mime from 'mime-types';

/**
 * The checks of spec §4 rule 4 ("filename, MIME type and size are validated against the describe
 * response before upload") and of the files a quote or run names (docs/decisions.md U1, U5). Pure:
 * the capability's `file_requirements` come from the registry's describe answer.
 */

/** `a`, `a or b`, `a, b or c`: the allowed list as a message names it. */
export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? 'nothing';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** 422 unless `contentType` is one of the capability's content_types. */
export function assertContentTypeAccepted(
  slug: string,
  requirements: FileRequirements,
  contentType: string,
  field: string,
): void {
  if (!acceptsContentType(requirements.content_types, contentType)) {
    throw new ValidationError(
      `${field}: capability ${slug} accepts ${listOf(requirements.content_types)}, not ${contentType}`,
    );
  }
}

/**
 * The extension of a file name, lowercased, or null when it has none (`README`, `.env`: a leading
 * dot starts a hidden name, not an extension).
 */
export function extensionOf(filename: string): string | null {
  const dot = filename.lastIndexOf('.');
  if (dot <= 0 || dot === filename.length - 1) return null;
  return filename.slice(dot + 1).toLowerCase();
}

/**
 * Why `filename` does not fit `contentType`, or null when it does: its extension must be one that
 * `mime-types` knows for the type. A name without an extension, or a type with no known extension,
 * passes (nothing to compare).
 */
export function extensionProblem(filename: string, contentType: string): string | null {
  const extension = extensionOf(filename);
  const known = mime.extensions[contentType];
  if (extension === null || known === undefined || known.length === 0) return null;
  if (known.includes(extension)) return null;
  return `${filename} has the extension .${extension}, which is not one of ${contentType} (${listOf(known.map((ext) => `.${ext}`))})`;
}

/**
 * 422 unless the session's file fits the capability (in this order): it takes files at all; the
 * content type is accepted; the size is within the capability's max_size_bytes and the platform's
 * UPLOAD_MAX_BYTES; the filename's extension matches the content type.
 */
export function assertSessionFile(
  slug: string,
  requirements: FileRequirements,
  input: UploadSessionInput,
): void {
  if (!requirements.accepts_files || requirements.max_files === 0) {
    throw new ValidationError(`capability ${slug} takes no files`);
  }
  assertContentTypeAccepted(slug, requirements, input.content_type, 'input.content_type');
  const own = requirements.max_size_bytes;
  if (own !== null && own < UPLOAD_MAX_BYTES && input.size_bytes > own) {
    throw new ValidationError(
      `input.size_bytes: ${input.size_bytes} bytes is over the ${own} bytes capability ${slug} accepts per file`,
    );
  }
  if (input.size_bytes > UPLOAD_MAX_BYTES) {
    throw new ValidationError(
      `input.size_bytes: ${input.size_bytes} bytes is over the platform limit of ${UPLOAD_MAX_BYTES} bytes per upload`,
    );
  }
  const problem = extensionProblem(input.filename, input.content_type);
  if (problem !== null) throw new ValidationError(`input.filename: ${problem}`);
}

/** 422 unless the number of files is within min_files..max_files (a quote's or run's input). */
export function assertFileCount(slug: string, requirements: FileRequirements, count: number): void {
  if (count > 0 && (!requirements.accepts_files || requirements.max_files === 0)) {
    throw new ValidationError(`capability ${slug} takes no files`);
  }
  const { min_files: min, max_files: max } = requirements;
  if (count < min || count > max) {
    const range = min === max ? `exactly ${min}` : `${min} to ${max}`;
    const plural = max === 1 ? '' : 's';
    throw new ValidationError(`capability ${slug} takes ${range} file${plural}; the input names ${count}`);
  }
}
