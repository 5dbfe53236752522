import { Sha256Hex } from '@svc/contracts';
import { z } from 'zod';

/** Largest HTML document one run takes, in bytes of UTF-8 (500 KB). */
export const HTML_MAX_BYTES = 500_000;
/** Largest PDF a run produces, in bytes (8 MiB). */
export const PDF_MAX_BYTES = 8 * 1024 * 1024;

/** Name of the PDF artifact of a run. */
export const PDF_ARTIFACT = 'document.pdf';

/** Input of `html-to-pdf` (requires_worker, runtime `browser`). */
export const HtmlToPdfInput = z
  .object({
    html: z
      .string()
      .min(1)
      .refine((html) => Buffer.byteLength(html, 'utf8') <= HTML_MAX_BYTES, {
        message: `must be at most ${HTML_MAX_BYTES} bytes of UTF-8`,
      })
      // JSON Schema counts characters, not bytes: every character is at least one byte of UTF-8, so
      // maxLength is the part of the byte limit a schema can state; the description states the rest.
      .meta({
        maxLength: HTML_MAX_BYTES,
        description:
          `A complete HTML document of at most ${HTML_MAX_BYTES} bytes of UTF-8 (so at most ${HTML_MAX_BYTES} ` +
          'characters, fewer outside ASCII). Inline styles and data: URLs render; network requests are blocked.',
      }),
    format: z.enum(['A4', 'Letter', 'Legal']).default('A4').describe('Paper size.'),
    landscape: z.boolean().default(false),
    print_background: z.boolean().default(true).describe('Print background colours and images.'),
    margin_mm: z.number().min(0).max(50).default(10).describe('Margin on every side, in millimetres.'),
  })
  .strict();
export type HtmlToPdfInput = z.infer<typeof HtmlToPdfInput>;

/** Result of `html-to-pdf`. */
export const HtmlToPdfResult = z
  .object({
    content_type: z.literal('application/pdf'),
    bytes: z.number().int().min(1).max(PDF_MAX_BYTES),
    pages: z.number().int().min(1),
    sha256: Sha256Hex,
    /** Name of the artifact holding the PDF (spec §4.9); version 2.0.0 replaced the base64 field. */
    artifact: z.literal(PDF_ARTIFACT),
  })
  .strict();
export type HtmlToPdfResult = z.infer<typeof HtmlToPdfResult>;
