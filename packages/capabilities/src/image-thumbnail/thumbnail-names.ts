/** characters: longest stem kept from an upload's filename in a thumbnail's name. */
const MAX_STEM_LENGTH = 64;

/** File extension of each output format. */
export const THUMBNAIL_EXTENSIONS = { jpeg: 'jpg', png: 'png', webp: 'webp' } as const;
export type ThumbnailFormat = keyof typeof THUMBNAIL_EXTENSIONS;

/**
 * The stem of an upload's filename made safe for an artifact name and an object key: the name
 * without its last extension, every run of characters outside `[A-Za-z0-9_-]` replaced by one
 * `-`, trimmed of `-` at both ends, at most 64 characters; `image` when nothing is left.
 * `Photo of me (1).JPG` → `Photo-of-me-1`.
 */
export function filenameStem(filename: string): string {
  const dot = filename.lastIndexOf('.');
  const base = dot > 0 ? filename.slice(0, dot) : filename;
  const stem = base
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .slice(0, MAX_STEM_LENGTH)
    .replace(/^-+|-+$/g, '');
  return stem === '' ? 'image' : stem;
}

/**
 * Artifact name of one thumbnail (design "Capabilities"): `<stem>-<n>-<w>x<h>.<ext>`, n the image's
 * 1-based position in `upload_ids`, w×h the thumbnail's own size (e.g. `photo-1-256x171.webp`). The
 * position keeps two images with one filename apart.
 */
export function thumbnailName(
  filename: string,
  position: number,
  size: { width: number; height: number },
  format: ThumbnailFormat,
): string {
  return `${filenameStem(filename)}-${position}-${size.width}x${size.height}.${THUMBNAIL_EXTENSIONS[format]}`;
}
