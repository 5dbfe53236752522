import { type CapabilitySettings, defineHandler } from '../kit/handler';
import type { pdfExtractTextEnv } from './env';
import { extractPdfText } from './extract-pdf-text';
import type { PdfExtractTextInput, PdfExtractTextResult } from './schema';

/**
 * pdf-extract-text on a worker (runtime node): extractPdfText (pdf.js in a worker thread). The
 * payload carries exactly one resolved upload (the job's schema); its bytes are read from object
 * storage, the text goes to the artifact `text.txt`.
 */
export default defineHandler<
  PdfExtractTextInput,
  PdfExtractTextResult,
  CapabilitySettings<typeof pdfExtractTextEnv>
>(({ settings }) => {
  const limits = {
    stepTimeoutMs: settings.PDF_EXTRACT_STEP_TIMEOUT_MS,
    maxHeapMb: settings.PDF_EXTRACT_THREAD_HEAP_MB,
  };
  return {
    run: async ({ input, files, storage, signal }) => {
      const [file] = files;
      if (file === undefined) throw new Error('pdf-extract-text: the job carries no file');
      return extractPdfText({ input, file, storage }, signal, limits);
    },
  };
});
