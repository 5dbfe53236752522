import type { FillReport } from '@svc/contracts';
import { fillPdfForm, PDF_TEMPLATE_MAX_BYTES, PDF_TEMPLATE_MAX_PAGES } from './pdf-form';
import { FillReportBuilder, type FillScope } from './report';
import { decodeTextTemplate, fillTextTemplate, TEXT_TEMPLATE_MAX_BYTES } from './text-template';

export type TemplateContentType = 'application/pdf' | 'text/plain' | 'text/markdown' | 'text/html';

export interface FillInput extends FillScope {
  /** The template's bytes (an inline text template: its UTF-8 encoding). */
  template: Uint8Array;
  /** What the template claims to be; checked against the bytes (422 when they disagree). */
  contentType: TemplateContentType;
}

export interface FillResult {
  /** The filled document (PDF, or UTF-8 text without BOM). */
  bytes: Uint8Array;
  contentType: TemplateContentType;
  report: FillReport;
}

/** The limits fillTemplate enforces (422 past them). */
export const FILL_LIMITS = {
  pdfMaxBytes: PDF_TEMPLATE_MAX_BYTES,
  pdfMaxPages: PDF_TEMPLATE_MAX_PAGES,
  textMaxBytes: TEXT_TEMPLATE_MAX_BYTES,
} as const;

/**
 * Fills a template with the allowed fields' values: a PDF AcroForm (text fields named after vault
 * fields, flattened into page text) or a text, Markdown or HTML template with `{{field_name}}`
 * placeholders. Pure: no I/O but reading the fonts once per process; the values appear in no
 * error, log or report (the report holds names only). Throws ValidationError (422) when the
 * template is not what its content type says, is damaged, encrypted, or past FILL_LIMITS.
 */
export async function fillTemplate(input: FillInput): Promise<FillResult> {
  const report = new FillReportBuilder(input);
  let bytes: Uint8Array;
  if (input.contentType === 'application/pdf') {
    bytes = await fillPdfForm(input.template, report);
  } else {
    const text = decodeTextTemplate(input.template);
    const filled = fillTextTemplate(text, input.contentType === 'text/html', report);
    bytes = new TextEncoder().encode(filled);
  }
  return { bytes, contentType: input.contentType, report: report.result() };
}
