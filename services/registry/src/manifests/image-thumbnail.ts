import {
  type CapabilityManifest,
  IMAGE_CONTENT_TYPES,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_FILES,
  IMAGE_MAX_PIXELS,
  ImageThumbnailInput,
  THUMBNAIL_MAX_SIZES,
} from '@svc/contracts';
import type { Category } from './categories';
import { count, mebibytes } from './file-limits';

const category: Category = 'media';

/**
 * `image-thumbnail` (supported, node): thumbnails of uploaded images with sharp
 * (services/worker/src/domain/image/). Priced per image, whatever the number of sizes.
 *
 * Words for the full-text index: "image", "thumbnail", "resize", "photo", "jpeg", "png", "webp",
 * "preview", "crop". The description states the fit modes and the artifact names, so a client
 * knows what it will download.
 */
export const imageThumbnailManifest: CapabilityManifest = {
  slug: 'image-thumbnail',
  name: 'Image thumbnails: resize photos to JPEG, PNG or WebP thumbnails',
  description:
    'Make thumbnails of images: resize photos and pictures to one or more sizes in one run. Upload the images ' +
    `first (one upload session each, JPEG, PNG or WebP), then pass up to ${IMAGE_MAX_FILES} upload_ids and up to ` +
    `${THUMBNAIL_MAX_SIZES} sizes (width, optional height). Fit: inside keeps the aspect ratio within the box ` +
    '(never enlarged), cover fills the box and crops to the centre, contain fits and pads. The camera orientation ' +
    '(EXIF) is applied, so portrait photos stay upright. Output format WebP (default), JPEG or PNG. Each thumbnail ' +
    "is an artifact named like photo-1-256x171.webp, listed with the run; the result gives each source image's " +
    `size and every thumbnail's size in pixels and bytes. Limits: ${mebibytes(IMAGE_MAX_BYTES)} and ` +
    `${count(IMAGE_MAX_PIXELS / 1_000_000)} megapixels per image. An unreadable image fails with invalid_input. ` +
    'USD 0.002 per image.',
  category,
  tags: [
    'image',
    'thumbnail',
    'thumbnails',
    'resize',
    'photo',
    'picture',
    'jpeg',
    'png',
    'webp',
    'preview',
    'crop',
  ],
  version: '1.0.0',
  pricing: {
    model: 'per_unit',
    currency: 'USD',
    // Unit = one image of upload_ids (contracts definitions.ts), whatever the number of sizes.
    unit: 'image',
    unit_price_usd: '0.002',
    description: 'USD 0.002 per image (all requested sizes included).',
  },
  file_requirements: {
    accepts_files: true,
    min_files: 1,
    max_files: IMAGE_MAX_FILES,
    max_size_bytes: IMAGE_MAX_BYTES,
    content_types: [...IMAGE_CONTENT_TYPES],
    // sharp's limitInputPixels in the worker, checked at quote time against the upload's width × height.
    max_pixels: IMAGE_MAX_PIXELS,
  },
  execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
  input: ImageThumbnailInput,
};
