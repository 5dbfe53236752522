import type { JobHandler } from '@svc/bus';
import type { ObjectStore } from '@svc/storage';
import { createRunStorage } from '../domain/capability/run-storage';
import { storeRenderedPdf } from '../domain/html-to-pdf/pdf-artifact';
import type { PdfRenderer } from '../domain/html-to-pdf/render-pdf';
import { type CapabilityJobDeps, capabilityJobHandler } from './capability-job';

/**
 * `capability.html-to-pdf` (runtime browser): the generic capability job around the chromium
 * renderer. A cancel or shutdown closes the render's browser context (the render rejects at once); a
 * crashed browser or a timeout is retried; a PDF over the cap or a refused document is `failed`. A
 * rendered PDF is stored as the artifact `document.pdf` of the run.
 */
export function htmlToPdfJobHandler(
  deps: CapabilityJobDeps & { renderPdf: PdfRenderer; store: ObjectStore },
): JobHandler<'capability.html-to-pdf'> {
  return capabilityJobHandler('capability.html-to-pdf', deps, async ({ run_id, input }, signal) => {
    const rendered = await deps.renderPdf(input, signal);
    if (rendered.kind !== 'rendered') return rendered;
    return storeRenderedPdf(rendered, createRunStorage(deps.store, run_id));
  });
}
