import type { JobHandler } from '@svc/bus';
import type { PdfRenderer } from '../domain/html-to-pdf/render-pdf';
import { type CapabilityJobDeps, capabilityJobHandler } from './capability-job';

/**
 * `capability.html-to-pdf` (runtime browser): the generic capability job around the chromium
 * renderer. A cancel or shutdown closes the render's browser context (the render rejects at once); a
 * crashed browser or a timeout is retried; a PDF over the cap or a refused document is `failed`.
 */
export function htmlToPdfJobHandler(
  deps: CapabilityJobDeps & { renderPdf: PdfRenderer },
): JobHandler<'capability.html-to-pdf'> {
  return capabilityJobHandler('capability.html-to-pdf', deps, ({ input }, signal) =>
    deps.renderPdf(input, signal),
  );
}
