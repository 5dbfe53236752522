import { ValidationError } from '@svc/errors';
import sharp from 'sharp';
import { storedMeasure } from '../probe';

/** Width, height (as displayed: EXIF orientation applied) and format of an image; 422 when unreadable. */
export async function imageMetadata(
  bytes: Uint8Array,
): Promise<{ width: number; height: number; format: string }> {
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

/** imageSizeProbe's measure: the stored image, read back whole (sharp reads its header). */
export default storedMeasure(imageMetadata);
