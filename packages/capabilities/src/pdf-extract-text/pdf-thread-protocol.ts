/**
 * Messages between a pdf-extract-text run and its worker thread (pdf-thread.cjs). The run asks for
 * one page at a time, so it can stop between pages (cancel, shutdown) and pass each page on to the
 * text artifact before the next one is read.
 */

/** run → thread */
export type ToPdfThread =
  /** The whole PDF (transferred, not copied); answered with `opened` or `error`. */
  | { type: 'open'; data: Uint8Array }
  /** One page's text (1-based); answered with `page` or `error`. */
  | { type: 'page'; page: number };

/** Why the thread could not read the PDF: it needs a password, or it is not a readable PDF. */
export type PdfReadFailure = 'encrypted' | 'unreadable';

/** thread → run */
export type FromPdfThread =
  | { type: 'opened'; pages: number }
  | { type: 'page'; page: number; text: string }
  | { type: 'error'; reason: PdfReadFailure; detail: string };
