import { durationMs, intInRange } from '@svc/config';

/**
 * pdf-extract-text's worker variables: pdf.js reads each PDF in a worker thread of its own
 * (pdf-reader.ts), bounded in time per step and in heap, so a PDF made to spin or to explode fails
 * `invalid_input` instead of taking the worker down. Merged into the worker's env schema.
 */
export const pdfExtractTextEnv = {
  // ms: opening a PDF, and reading each page, must finish within this.
  PDF_EXTRACT_STEP_TIMEOUT_MS: durationMs(30_000).describe(
    'ms opening a PDF, and reading each page, may take.',
  ),
  // MiB: V8 heap of one reading thread (one per running pdf-extract-text job).
  PDF_EXTRACT_THREAD_HEAP_MB: intInRange(64, 8_192, 512).describe(
    'MiB of V8 heap of one PDF-reading thread (one per running pdf-extract-text job).',
  ),
};
