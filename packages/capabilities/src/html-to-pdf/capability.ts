import { defineCapability } from '../define';
import { htmlToPdfEnv } from './env';
import { HTML_MAX_BYTES, HtmlToPdfInput, HtmlToPdfResult, PDF_MAX_BYTES } from './schema';

/** Bytes → "500 KB" / "8 MiB" for the description, from the schema's limits (never restated). */
const htmlLimit = `${HTML_MAX_BYTES / 1000} KB`;
const pdfLimit = `${PDF_MAX_BYTES / (1024 * 1024)} MiB`;

/**
 * `html-to-pdf` (requires_worker, runtime `browser`): runs only on workers started with `browser`
 * in WORKER_RUNTIMES (spec §2.1: the run waits, queued, until such a worker is up).
 *
 * Words for the full-text index: "pdf", "html", "convert", "render", "print", "chromium",
 * "headless". The description states the sandbox (no network, no JavaScript) so a client does not
 * send a page that needs remote assets, and the size limits.
 */
export const htmlToPdf = defineCapability({
  slug: 'html-to-pdf',
  name: 'HTML to PDF: render and print an HTML document to PDF',
  description:
    'Convert an HTML document to a PDF file: the page is rendered and printed by headless Chromium. Choose the ' +
    'paper size (A4, Letter, Legal), portrait or landscape, margins and whether backgrounds print. Inline CSS, ' +
    'inline SVG and data: URLs render; network requests are blocked and JavaScript is disabled, so external ' +
    'images, fonts and scripts are not loaded (nothing is fetched on your behalf). ' +
    `Limits: HTML up to ${htmlLimit} of UTF-8, PDF up to ${pdfLimit}. The PDF is the run's artifact document.pdf, ` +
    "downloadable from the run's artifacts; the result names it and gives its size, page count and SHA-256. " +
    'Runs on a browser worker; the run stays queued until one is up. USD 0.01 per document.',
  category: 'documents',
  tags: [
    'pdf',
    'html',
    'convert',
    'render',
    'print',
    'chromium',
    'headless',
    'browser',
    'document',
    'invoice',
  ],
  // 2.0.0: the PDF moved from the result (pdf_base64) to the artifact document.pdf (breaking).
  version: '2.0.0',
  pricing: { model: 'flat', currency: 'USD', price_usd: '0.01', description: 'USD 0.01 per document.' },
  execution: { machine_run_status: 'requires_worker', runtime: 'browser', mode: 'async' },
  workload: 'browser',
  input: HtmlToPdfInput,
  result: HtmlToPdfResult,
  env: htmlToPdfEnv,
  handler: () => import('./handler'),
});
