import { UploadId } from '@svc/contracts';
import { z } from 'zod';

/** Largest image `image-thumbnail` accepts (20 MiB), images per run, sizes per image. */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const IMAGE_MAX_FILES = 10;
export const THUMBNAIL_MAX_SIZES = 5;
/** Largest source image, in pixels (width × height), sharp refuses more (decompression bombs). */
export const IMAGE_MAX_PIXELS = 100_000_000;
export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

const Dimension = z.number().int().min(1).max(4096);

export const ThumbnailSize = z
  .object({
    width: Dimension,
    /** Omitted: keeps the aspect ratio from the width. */
    height: Dimension.optional(),
  })
  .strict();
export type ThumbnailSize = z.infer<typeof ThumbnailSize>;

/** Input of `image-thumbnail`: uploaded images and the sizes wanted for each. */
export const ImageThumbnailInput = z
  .object({
    upload_ids: z
      .array(UploadId)
      .min(1)
      .max(IMAGE_MAX_FILES)
      .refine((ids) => new Set(ids).size === ids.length, { message: 'must not repeat an upload_id' })
      .meta({
        uniqueItems: true,
        description: 'upload_ids of completed upload sessions of this capability (JPEG, PNG or WebP).',
      }),
    sizes: z
      .array(ThumbnailSize)
      .min(1)
      .max(THUMBNAIL_MAX_SIZES)
      .default([{ width: 256 }])
      .describe('Bounding boxes; each image gets one thumbnail per size.'),
    format: z.enum(['jpeg', 'png', 'webp']).default('webp').describe('Format of the thumbnails.'),
    fit: z
      .enum(['inside', 'cover', 'contain'])
      .default('inside')
      .describe('inside: fits within the box, aspect kept; cover: fills and crops; contain: fits and pads.'),
  })
  .strict();
export type ImageThumbnailInput = z.infer<typeof ImageThumbnailInput>;

export const Thumbnail = z
  .object({
    /** Artifact name, e.g. `photo-1-256x171.webp`. */
    artifact: z.string(),
    width: z.number().int().min(1),
    height: z.number().int().min(1),
    bytes: z.number().int().min(1),
  })
  .strict();

export const ImageThumbnailResult = z
  .object({
    images: z.array(
      z
        .object({
          upload_id: UploadId,
          source: z
            .object({ format: z.string(), width: z.number().int().min(1), height: z.number().int().min(1) })
            .strict(),
          thumbnails: z.array(Thumbnail),
        })
        .strict(),
    ),
    thumbnails: z.number().int().min(0),
  })
  .strict();
export type ImageThumbnailResult = z.infer<typeof ImageThumbnailResult>;
