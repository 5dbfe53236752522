import { PassThrough } from 'node:stream';
import { type ProducedArtifact, type ResolvedFile, RUN_ERROR_CODES } from '@svc/contracts';
import { SizeLimitError } from '@svc/storage';
import type { CapabilityOutcome, FailedOutcome } from '../kit/outcome';
import { readBounded, TooLargeError } from '../kit/read-bounded';
import type { RunStorage } from '../kit/run-storage';
import { PageTextBudget } from './page-text-budget';
import { openPdfReader, PdfReadError, type PdfReaderOptions } from './pdf-reader';
import {
  PDF_EXTRACT_MAX_BYTES,
  PDF_EXTRACT_MAX_PAGES,
  PDF_EXTRACT_RESULT_MAX_CHARS,
  PDF_TEXT_ARTIFACT,
  type PdfExtractTextInput,
  type PdfExtractTextResult,
} from './schema';

/** bytes: cap of the text artifact (64 MiB); compressed PDF text can outgrow the PDF itself. */
export const PDF_TEXT_ARTIFACT_MAX_BYTES = 64 * 1024 * 1024;
/** Between pages of the text artifact (design "Capabilities": pages joined with form feeds). */
const PAGE_SEPARATOR = '\f';

export interface PdfExtractOptions extends PdfReaderOptions {
  /** Pages a PDF may have; default PDF_EXTRACT_MAX_PAGES (tests lower it). */
  maxPages?: number;
  /** Characters of text the JSON result carries; default PDF_EXTRACT_RESULT_MAX_CHARS. */
  resultMaxChars?: number;
}

export interface PdfExtractJob {
  input: PdfExtractTextInput;
  /** The one resolved upload (the job payload's `files`). */
  file: ResolvedFile;
  storage: RunStorage;
}

function invalidInput(message: string, detail?: string): FailedOutcome {
  return {
    kind: 'failed',
    error: { code: RUN_ERROR_CODES.invalidInput, message: `pdf-extract-text: ${message}` },
    ...(detail === undefined ? {} : { detail }),
  };
}

/** What a PdfReadError says to the client (the thread's own detail goes to the logs only). */
function readFailureMessage(err: PdfReadError): string {
  switch (err.reason) {
    case 'encrypted':
      return 'the PDF is encrypted (it needs a password to open); upload it without a password';
    case 'unreadable':
      return 'the file is not a readable PDF (damaged or not a PDF)';
    case 'too_complex':
    case 'too_slow':
      return `the PDF is too complex to read: ${err.message}`;
  }
}

/** pdf.js's own words for an encrypted or unreadable PDF: for the worker's log only (issue 13). */
function pdfJsDetail(err: PdfReadError): string | undefined {
  return err.reason === 'encrypted' || err.reason === 'unreadable' ? err.message : undefined;
}

/**
 * pdf-extract-text: the text of every page of one uploaded PDF (pdf.js, in a worker thread: see
 * pdf-thread.cjs). The PDF is read into memory whole — pdf.js needs random access to the
 * file — which PDF_EXTRACT_MAX_BYTES (25 MiB, enforced at upload and again here) bounds. Pages are
 * read one at a time: the signal is checked between pages (and aborts a page in progress by ending
 * the thread), and each page's text is streamed to the `text.txt` artifact (pages separated by
 * form feeds) as soon as it is read; the JSON result carries the text up to resultMaxChars
 * characters (Unicode code points), per page, with `truncated` set where it was cut.
 *
 * Failed `invalid_input` (final): a PDF that needs a password, is damaged or not a PDF, has more
 * than maxPages pages, or makes a page take too long or too much memory. Failed `output_too_large`:
 * text beyond PDF_TEXT_ARTIFACT_MAX_BYTES. Throws (retried) on storage faults, the signal's reason
 * on abort.
 */
export async function extractPdfText(
  job: PdfExtractJob,
  signal: AbortSignal,
  options: PdfExtractOptions,
): Promise<CapabilityOutcome<PdfExtractTextResult>> {
  const maxPages = options.maxPages ?? PDF_EXTRACT_MAX_PAGES;
  let bytes: Buffer;
  try {
    bytes = await readBounded(await job.storage.openFile(job.file), PDF_EXTRACT_MAX_BYTES, signal);
  } catch (err) {
    if (err instanceof TooLargeError) {
      return invalidInput(`the PDF is larger than the limit of ${PDF_EXTRACT_MAX_BYTES} bytes`);
    }
    throw err;
  }

  let reader: Awaited<ReturnType<typeof openPdfReader>>;
  try {
    reader = await openPdfReader(bytes, signal, options);
  } catch (err) {
    if (err instanceof PdfReadError) return invalidInput(readFailureMessage(err), pdfJsDetail(err));
    throw err;
  }

  const text = new PassThrough();
  let writing: Promise<ProducedArtifact> | undefined;
  try {
    if (reader.pages > maxPages) {
      return invalidInput(`the PDF has ${reader.pages} pages; at most ${maxPages} are read`);
    }
    writing = job.storage.writeArtifact(PDF_TEXT_ARTIFACT, text, {
      contentType: 'text/plain',
      maxBytes: PDF_TEXT_ARTIFACT_MAX_BYTES,
    });
    // Rejections are awaited below; until then a failure must not count as unhandled.
    writing.catch(() => {});
    const budget = new PageTextBudget(options.resultMaxChars ?? PDF_EXTRACT_RESULT_MAX_CHARS);
    for (let page = 1; page <= reader.pages; page += 1) {
      signal.throwIfAborted();
      const pageText = await reader.text(page, signal);
      const chunk = page === 1 ? pageText : `${PAGE_SEPARATOR}${pageText}`;
      // Backpressure: wait while storage is slower than pdf.js (or stop if the write failed).
      if (!text.write(chunk)) await Promise.race([drained(text), writing]);
      budget.add(page, pageText);
    }
    text.end();
    const artifact = await writing;
    const result: PdfExtractTextResult = {
      upload_id: job.input.upload_id,
      pages: reader.pages,
      characters: budget.characters,
      page_texts: budget.pages,
      truncated: budget.truncated,
      text_artifact: PDF_TEXT_ARTIFACT,
    };
    return { kind: 'completed', result, artifacts: [artifact] };
  } catch (err) {
    if (err instanceof PdfReadError) return invalidInput(readFailureMessage(err), pdfJsDetail(err));
    if (err instanceof SizeLimitError) {
      return {
        kind: 'failed',
        error: {
          code: RUN_ERROR_CODES.outputTooLarge,
          message: `pdf-extract-text: the text is larger than ${PDF_TEXT_ARTIFACT_MAX_BYTES} bytes`,
        },
      };
    }
    throw err;
  } finally {
    // A stream not ended here failed or was aborted: destroying it makes the store keep nothing.
    // (With an error only when the store reads it: an 'error' nobody listens to would be thrown.)
    if (writing === undefined) text.destroy();
    else if (!text.writableEnded)
      text.destroy(new Error('pdf-extract-text stopped before the end of the text'));
    await Promise.all([reader.close(), writing?.catch(() => {})]);
  }
}

function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => stream.once('drain', resolve));
}
