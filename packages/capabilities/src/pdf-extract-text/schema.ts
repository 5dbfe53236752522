import { UploadId } from '@svc/contracts';
import { z } from 'zod';

/** Largest PDF `pdf-extract-text` accepts (25 MiB) and most pages it reads. */
export const PDF_EXTRACT_MAX_BYTES = 25 * 1024 * 1024;
export const PDF_EXTRACT_MAX_PAGES = 2_000;
/** Characters of text the JSON result carries in all; the `.txt` artifact always has everything. */
export const PDF_EXTRACT_RESULT_MAX_CHARS = 200_000;
/** Name of the text artifact. */
export const PDF_TEXT_ARTIFACT = 'text.txt';

/** Input of `pdf-extract-text`: one uploaded PDF (spec §4 rule 1). */
export const PdfExtractTextInput = z
  .object({
    upload_id: UploadId.describe(
      'upload_id of a completed upload session of this capability (application/pdf).',
    ),
  })
  .strict();
export type PdfExtractTextInput = z.infer<typeof PdfExtractTextInput>;

/** One page of text (1-based page number). */
export const PdfPageText = z
  .object({
    page: z.number().int().min(1),
    characters: z.number().int().min(0),
    text: z.string(),
    /** True when this page's text in the JSON was cut to stay within the result limit. */
    truncated: z.boolean(),
  })
  .strict();

export const PdfExtractTextResult = z
  .object({
    upload_id: UploadId,
    pages: z.number().int().min(0),
    characters: z.number().int().min(0),
    /** Per page; text is cut once the result holds PDF_EXTRACT_RESULT_MAX_CHARS characters. */
    page_texts: z.array(PdfPageText),
    truncated: z.boolean(),
    /** Name of the artifact with the whole text, pages separated by form feeds (\f). */
    text_artifact: z.literal(PDF_TEXT_ARTIFACT),
  })
  .strict();
export type PdfExtractTextResult = z.infer<typeof PdfExtractTextResult>;
