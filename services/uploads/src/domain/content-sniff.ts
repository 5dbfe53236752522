import { ValidationError } from '@svc/errors';
import { filetypemime } from 'magic-bytes.js';

/**
 * Content sniffing of an upload's first bytes (docs/decisions.md U5): the declared Content-Type must
 * be what the bytes are, so a worker never parses a PNG as a PDF.
 * - Binary types with a magic number (SNIFFED_BINARY) must be recognised as that type by
 *   magic-bytes.js.
 * - Text types (`text/*`, JSON, XML) must be valid UTF-8 without NUL bytes.
 * - Anything else is accepted as declared: there is nothing reliable to compare against.
 */

/** Binary types magic-bytes.js recognises by signature (checked: sharp's encoders, pdf-lib's output). */
const SNIFFED_BINARY = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/tiff',
  'image/avif',
  'image/bmp',
  'application/zip',
  'application/gzip',
]);

export function isTextType(contentType: string): boolean {
  return (
    contentType.startsWith('text/') ||
    contentType === 'application/json' ||
    contentType === 'application/xml' ||
    contentType.endsWith('+json') ||
    contentType.endsWith('+xml')
  );
}

/** What the bytes look like, for the message: a recognised type, else a short description. */
function lookalike(head: Buffer): string | null {
  return filetypemime(head)[0] ?? null;
}

/**
 * Whether `head` is valid UTF-8. When the head is only the start of the body (`complete` false), a
 * multi-byte character cut at its end is not an error: its remaining bytes are past the head.
 */
export function isValidUtf8(head: Buffer, complete: boolean): boolean {
  try {
    // stream: true keeps an incomplete trailing sequence pending instead of failing on it.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `head` is not `declared`, or null when it is (or cannot be told). `complete`: the head is the
 * whole body (a body shorter than the head size).
 */
export function sniffProblem(head: Buffer, declared: string, complete: boolean): string | null {
  if (isTextType(declared)) {
    if (!head.includes(0) && isValidUtf8(head, complete)) return null;
    const seen = lookalike(head);
    const what =
      seen !== null
        ? `it looks like ${seen}`
        : head.includes(0)
          ? 'it has NUL bytes'
          : 'it is not valid UTF-8 text';
    return `content is not ${declared} (${what})`;
  }
  if (!SNIFFED_BINARY.has(declared)) return null;
  const seen = filetypemime(head);
  if (seen.includes(declared)) return null;
  const what = seen[0] !== undefined ? `it looks like ${seen[0]}` : 'its type was not recognised';
  return `content is not ${declared} (${what})`;
}

/** 422 unless the head is the declared type (sniffProblem). */
export function assertContentMatches(head: Buffer, declared: string, complete: boolean): void {
  const problem = sniffProblem(head, declared, complete);
  if (problem !== null) throw new ValidationError(problem);
}
