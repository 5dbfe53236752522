import { defineHandler } from '../kit/handler';
import { makeThumbnails } from './make-thumbnails';
import type { ImageThumbnailInput, ImageThumbnailResult } from './schema';

/**
 * image-thumbnail on a worker (runtime node): makeThumbnails (sharp, on libuv's thread pool). Each
 * thumbnail is an artifact of the run.
 */
export default defineHandler<ImageThumbnailInput, ImageThumbnailResult>(() => ({
  run: ({ input, files, storage, signal }) => makeThumbnails({ input, files, storage }, signal),
}));
