import { FileFacts } from '@svc/contracts';
import { z } from 'zod';
import { defineProbe } from '../probe';

/**
 * Width and height of an image as displayed (EXIF orientation applied) and its format (sharp's
 * metadata, when the upload completes): what `max_pixels` is checked against. An image sharp
 * cannot read is refused (422) at upload.
 */
export const imageSizeProbe = defineProbe({
  facts: z.object({
    width: FileFacts.shape.width,
    height: FileFacts.shape.height,
    format: FileFacts.shape.format,
  }),
  // The types sharp's prebuilt libvips reads.
  contentTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/tiff', 'image/avif'],
  measure: () => import('./image-metadata'),
  checkLimits({ width, height }, { max_pixels: maxPixels }) {
    if (maxPixels === undefined || width === undefined || height === undefined) return undefined;
    if (width * height <= maxPixels) return undefined;
    return {
      found: `is ${width} × ${height} = ${width * height} pixels`,
      limit: `${maxPixels} pixels (file_requirements.max_pixels)`,
    };
  },
});
