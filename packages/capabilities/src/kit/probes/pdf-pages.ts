import { FileFacts } from '@svc/contracts';
import { z } from 'zod';
import { defineProbe } from '../probe';

/**
 * The page count of a PDF (pdf-lib, when the upload completes): what per-page prices count and
 * `max_pages` is checked against. A PDF pdf-lib cannot parse is refused (422) at upload.
 */
export const pdfPageProbe = defineProbe({
  facts: z.object({ pages: FileFacts.shape.pages }),
  contentTypes: ['application/pdf'],
  measure: () => import('./pdf-page-count'),
  checkLimits({ pages }, { max_pages: maxPages }) {
    if (maxPages === undefined || pages === undefined || pages <= maxPages) return undefined;
    return { found: `has ${pages} pages`, limit: `${maxPages} pages (file_requirements.max_pages)` };
  },
});
