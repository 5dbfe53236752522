import type { Readable } from 'node:stream';
import type { FileFacts } from '@svc/contracts';
import { ValidationError } from '@svc/errors';
import type { ObjectStore } from '@svc/storage';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

/**
 * Facts learned from a stored upload (docs/decisions.md U6), used to price and check quotes without
 * reading the bytes again: the page count of a PDF (pdf-lib), width/height/format of an image
 * (sharp). Other types have none. Unreadable content is a 422: the upload is refused.
 */

/** Image types sharp reads (its prebuilt libvips): metadata is read for these only. */
const SHARP_IMAGES = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/tiff',
  'image/avif',
]);

/** Reads `body` whole, failing past `maxBytes` (the declared size: the store holds exactly that). */
export async function readBounded(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    length += buffer.length;
    if (length > maxBytes) {
      body.destroy();
      throw new Error(`stored object is larger than ${maxBytes} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, length);
}

/** Number of pages of a PDF; 422 when pdf-lib cannot parse it. Encrypted PDFs are counted too. */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  try {
    const document = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    return document.getPageCount();
  } catch {
    throw new ValidationError('content is not a readable PDF');
  }
}

/** Width, height (as displayed: EXIF orientation applied) and format of an image; 422 when unreadable. */
export async function imageFacts(bytes: Uint8Array): Promise<FileFacts> {
  const metadata = await sharp(bytes)
    .metadata()
    .catch(() => {
      throw new ValidationError('content is not a readable image');
    });
  const width = metadata.autoOrient?.width ?? metadata.width;
  const height = metadata.autoOrient?.height ?? metadata.height;
  if (!width || !height) throw new ValidationError('content is not a readable image (no dimensions)');
  return { width, height, format: metadata.format };
}

export function hasFacts(contentType: string): boolean {
  return contentType === 'application/pdf' || SHARP_IMAGES.has(contentType);
}

/**
 * The facts of the object under `key` (read back from storage, at most `sizeBytes`), or `{}` for a
 * type without facts. Throws ValidationError (422) for content that does not parse.
 */
export async function readFileFacts(
  store: ObjectStore,
  key: string,
  contentType: string,
  sizeBytes: number,
): Promise<FileFacts> {
  if (!hasFacts(contentType)) return {};
  const bytes = await readBounded(await store.get(key), sizeBytes);
  if (contentType === 'application/pdf') return { pages: await pdfPageCount(bytes) };
  return imageFacts(bytes);
}
