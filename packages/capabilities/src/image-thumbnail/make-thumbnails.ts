import { Readable } from 'node:stream';
import { type ProducedArtifact, type ResolvedFile, RUN_ERROR_CODES } from '@svc/contracts';
import sharp, { type Sharp } from 'sharp';
import type { CapabilityOutcome } from '../kit/outcome';
import { readBounded, TooLargeError } from '../kit/read-bounded';
import type { RunStorage } from '../kit/run-storage';
import {
  IMAGE_MAX_BYTES,
  IMAGE_MAX_PIXELS,
  type ImageThumbnailInput,
  type ImageThumbnailResult,
  type ThumbnailSize,
} from './schema';
import { type ThumbnailFormat, thumbnailName } from './thumbnail-names';

/** Formats a source image may have (contracts IMAGE_CONTENT_TYPES), as sharp names them. */
const SOURCE_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp']);
const CONTENT_TYPES: Record<ThumbnailFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

export interface ThumbnailJob {
  input: ImageThumbnailInput;
  /** The resolved uploads, in the order of `input.upload_ids`. */
  files: readonly ResolvedFile[];
  storage: RunStorage;
}

type ImageEntry = ImageThumbnailResult['images'][number];

/**
 * An image sharp cannot use: the input's fault (failed `invalid_input`, no retry). `message` is ours
 * and goes to the client; `detail` is what sharp/libvips said ("vipspng: libpng read error …"),
 * for the worker's log only (issue 13: no library internals in a run's error).
 */
class UnusableImageError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'UnusableImageError';
  }
}

/**
 * image-thumbnail: for each uploaded image, one thumbnail per requested size, with sharp. Each
 * image is read into memory (at most IMAGE_MAX_BYTES, 20 MiB: sharp buffers a stream input whole
 * anyway) and decoded with limitInputPixels = IMAGE_MAX_PIXELS (decompression bombs fail before
 * any pixel is decoded) and failOn 'warning' (truncated or corrupt data fails instead of producing
 * a half-grey thumbnail). EXIF orientation is applied first (`autoOrient`), so a portrait photo
 * stays portrait and `source` gives the size as shown; metadata is not copied to thumbnails.
 * `fit`: inside (within the box, aspect kept; never enlarged), cover (fills the box, cropped to the
 * centre), contain (fits the box, padded transparent — white for JPEG). Each thumbnail is written
 * as the artifact `<stem>-<n>-<w>x<h>.<ext>`; two sizes that come out the same for one image give
 * one artifact.
 *
 * The signal is checked between images and between sizes (a resize itself runs on libuv's pool
 * and is not interrupted). Failed `invalid_input`: a file that is not a JPEG, PNG or WebP sharp can
 * decode, or is over the pixel or byte limit. Throws (retried) on storage faults. A run that does
 * not complete deletes the thumbnails it had written (they are never reported).
 */
export async function makeThumbnails(
  job: ThumbnailJob,
  signal: AbortSignal,
): Promise<CapabilityOutcome<ImageThumbnailResult>> {
  const artifacts: ProducedArtifact[] = [];
  let outcome: CapabilityOutcome<ImageThumbnailResult> | undefined;
  try {
    outcome = await thumbnailAll(job, artifacts, signal);
    return outcome;
  } finally {
    // Failed, cancelled or crashed after some thumbnails were written: those are never reported.
    if (outcome?.kind !== 'completed') await job.storage.discardArtifacts(artifacts);
  }
}

/** The work of makeThumbnails; `artifacts` collects what was written, as it is written. */
async function thumbnailAll(
  job: ThumbnailJob,
  artifacts: ProducedArtifact[],
  signal: AbortSignal,
): Promise<CapabilityOutcome<ImageThumbnailResult>> {
  const images: ImageEntry[] = [];
  for (const [index, uploadId] of job.input.upload_ids.entries()) {
    signal.throwIfAborted();
    const file = job.files.find((candidate) => candidate.upload_id === uploadId);
    if (file === undefined)
      throw new Error(`image-thumbnail: upload ${uploadId} is not among the job's files`);
    const label = `image ${index + 1} (${file.filename})`;
    try {
      images.push(await thumbnailsOf(job, file, index + 1, artifacts, signal));
    } catch (err) {
      if (err instanceof UnusableImageError) {
        return {
          kind: 'failed',
          error: { code: RUN_ERROR_CODES.invalidInput, message: `image-thumbnail: ${label}: ${err.message}` },
          ...(err.detail === undefined ? {} : { detail: err.detail }),
        };
      }
      throw err;
    }
  }
  const result: ImageThumbnailResult = { images, thumbnails: artifacts.length };
  return { kind: 'completed', result, artifacts };
}

async function thumbnailsOf(
  job: ThumbnailJob,
  file: ResolvedFile,
  position: number,
  artifacts: ProducedArtifact[],
  signal: AbortSignal,
): Promise<ImageEntry> {
  let bytes: Buffer;
  try {
    bytes = await readBounded(await job.storage.openFile(file), IMAGE_MAX_BYTES, signal);
  } catch (err) {
    if (err instanceof TooLargeError) throw new UnusableImageError(`larger than ${IMAGE_MAX_BYTES} bytes`);
    throw err;
  }
  const decode = () =>
    sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'warning', autoOrient: true });
  // The header only, without the pixel limit, so an image over it gets our words (the quote checks
  // the same limit against the upload's facts: file_requirements.max_pixels).
  const metadata = await sharpStep(
    () => sharp(bytes, { limitInputPixels: false, autoOrient: true }).metadata(),
    'the file is not a JPEG, PNG or WebP image that can be read',
  );
  if (!SOURCE_FORMATS.has(metadata.format)) {
    throw new UnusableImageError(`a ${metadata.format} image; JPEG, PNG or WebP are accepted`);
  }
  const pixels = metadata.width * metadata.height;
  if (pixels > IMAGE_MAX_PIXELS) {
    throw new UnusableImageError(
      `${metadata.width} × ${metadata.height} = ${pixels} pixels, above the limit of ${IMAGE_MAX_PIXELS} pixels`,
    );
  }
  const entry: ImageEntry = {
    upload_id: file.upload_id,
    source: { format: metadata.format, width: metadata.autoOrient.width, height: metadata.autoOrient.height },
    thumbnails: [],
  };
  const format = job.input.format;
  for (const size of job.input.sizes) {
    signal.throwIfAborted();
    const output = await sharpStep(
      () => resized(decode(), size, job.input.fit, format).toBuffer({ resolveWithObject: true }),
      'the image data is damaged or incomplete and cannot be decoded; upload the whole, undamaged file',
    );
    const name = thumbnailName(file.filename, position, output.info, format);
    if (artifacts.some((artifact) => artifact.name === name)) continue;
    const artifact = await job.storage.writeArtifact(name, Readable.from([output.data]), {
      contentType: CONTENT_TYPES[format],
      maxBytes: output.data.length,
    });
    artifacts.push(artifact);
    entry.thumbnails.push({
      artifact: name,
      width: output.info.width,
      height: output.info.height,
      bytes: artifact.size_bytes,
    });
  }
  return entry;
}

function resized(
  image: Sharp,
  size: ThumbnailSize,
  fit: ImageThumbnailInput['fit'],
  format: ThumbnailFormat,
): Sharp {
  const background =
    format === 'jpeg' ? { r: 255, g: 255, b: 255, alpha: 1 } : { r: 0, g: 0, b: 0, alpha: 0 };
  return image
    .resize({
      width: size.width,
      ...(size.height === undefined ? {} : { height: size.height }),
      fit,
      // A thumbnail is never larger than its source (inside); cover/contain fill the box as asked.
      withoutEnlargement: fit === 'inside',
      ...(fit === 'contain' ? { background } : {}),
    })
    .toFormat(format);
}

/**
 * Runs one sharp call; whatever it throws is about this image (the options are validated input): the
 * client gets `message`, sharp's own text goes to the log as the outcome's detail.
 */
async function sharpStep<T>(step: () => Promise<T>, message: string): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw new UnusableImageError(message, err instanceof Error ? err.message : String(err));
  }
}
