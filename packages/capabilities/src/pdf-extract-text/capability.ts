import { defineCapability } from '../define';
import { count, mebibytes } from '../figures';
import { pdfPageProbe } from '../kit/probes/pdf-pages';
import { pdfExtractTextEnv } from './env';
import {
  PDF_EXTRACT_MAX_BYTES,
  PDF_EXTRACT_MAX_PAGES,
  PDF_EXTRACT_RESULT_MAX_CHARS,
  PdfExtractTextInput,
  PdfExtractTextResult,
} from './schema';

/**
 * `pdf-extract-text` (supported, node): the text layer of one uploaded PDF, per page, with pdf.js.
 * Priced per page, which the uploads service counted when the bytes arrived (decisions U6), so the
 * quote is exact before anything runs.
 *
 * Words for the full-text index: "pdf", "text", "extract", "extraction", "pages", "document",
 * "parse", "read". It says plainly that there is no OCR (a scanned PDF has no text layer) and that
 * encrypted PDFs fail, so nobody pays for an empty result by surprise.
 */
export const pdfExtractText = defineCapability({
  slug: 'pdf-extract-text',
  name: 'PDF text extraction: extract plain text from PDF documents',
  description:
    'Extract the text of a PDF document, page by page. Upload the PDF first (upload session), then pass its ' +
    'upload_id. The result lists each page with its text and character count; the whole text is also saved as ' +
    "the artifact text.txt (pages separated by form feeds), downloadable from the run's artifacts. The JSON " +
    `result carries up to ${count(PDF_EXTRACT_RESULT_MAX_CHARS)} characters of text (what is cut is marked ` +
    'truncated); the artifact always has all of it. Reads the text layer of digital PDFs (reports, invoices, ' +
    'contracts, papers): no OCR, so a scanned PDF without a text layer gives no text. Limits: one PDF of up ' +
    `to ${mebibytes(PDF_EXTRACT_MAX_BYTES)} and ${count(PDF_EXTRACT_MAX_PAGES)} pages. A PDF that needs a ` +
    'password, or is damaged, fails with invalid_input. USD 0.001 per page (minimum USD 0.001).',
  category: 'documents',
  tags: ['pdf', 'text', 'extract', 'extraction', 'document', 'parse', 'read', 'txt'],
  version: '1.0.0',
  pricing: {
    model: 'per_unit',
    currency: 'USD',
    unit: 'page',
    unit_price_usd: '0.001',
    minimum_usd: '0.001',
    description: 'USD 0.001 per page (minimum USD 0.001 per run).',
    // Per page of the uploaded PDF (the probe's `pages`, counted when the bytes arrived).
    units: (_input, files) => files.reduce((sum, file) => sum + (file.facts.pages ?? 0), 0),
  },
  files: {
    field: 'upload_id',
    min_files: 1,
    max_files: 1,
    max_size_bytes: PDF_EXTRACT_MAX_BYTES,
    content_types: ['application/pdf'],
    // The run's own limit (extract-pdf-text.ts), checked at quote time against the upload's pages.
    max_pages: PDF_EXTRACT_MAX_PAGES,
    probe: pdfPageProbe,
  },
  execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
  workload: 'cpu',
  input: PdfExtractTextInput,
  result: PdfExtractTextResult,
  env: pdfExtractTextEnv,
  handler: () => import('./handler'),
});
