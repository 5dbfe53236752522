import { defineCapability } from '../define';
import { count, mebibytes } from '../figures';
import { imageSizeProbe } from '../kit/probes/image-size';
import {
  IMAGE_CONTENT_TYPES,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_FILES,
  IMAGE_MAX_PIXELS,
  ImageThumbnailInput,
  ImageThumbnailResult,
  THUMBNAIL_MAX_SIZES,
} from './schema';

/**
 * `image-thumbnail` (supported, node): thumbnails of uploaded images with sharp. Priced per image,
 * whatever the number of sizes.
 *
 * Words for the full-text index: "image", "thumbnail", "resize", "photo", "jpeg", "png", "webp",
 * "preview", "crop". The description states the fit modes and the artifact names, so a client
 * knows what it will download.
 */
export const imageThumbnail = defineCapability({
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
  category: 'media',
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
    unit: 'image',
    unit_price_usd: '0.002',
    description: 'USD 0.002 per image (all requested sizes included).',
    // Per image of upload_ids, whatever the number of sizes.
    units: (input) => input.upload_ids.length,
  },
  files: {
    field: 'upload_ids',
    min_files: 1,
    max_files: IMAGE_MAX_FILES,
    max_size_bytes: IMAGE_MAX_BYTES,
    content_types: IMAGE_CONTENT_TYPES,
    // sharp's limitInputPixels in the run, checked at quote time against the upload's width × height.
    max_pixels: IMAGE_MAX_PIXELS,
    probe: imageSizeProbe,
  },
  execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
  workload: 'cpu',
  input: ImageThumbnailInput,
  result: ImageThumbnailResult,
  handler: () => import('./handler'),
});
