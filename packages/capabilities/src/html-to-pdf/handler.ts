import { type CapabilitySettings, defineHandler } from '../kit/handler';
import { BrowserHost } from './browser-host';
import type { htmlToPdfEnv } from './env';
import { storeRenderedPdf } from './pdf-artifact';
import { createPdfRenderer } from './render-pdf';
import type { HtmlToPdfInput, HtmlToPdfResult } from './schema';

/**
 * html-to-pdf on a worker (runtime browser): the chromium renderer on the process's one chromium,
 * launched on the first job (a browser worker that gets none never pays for it) and closed with the
 * handler at shutdown. A cancel or shutdown closes the render's browser context (the render rejects
 * at once); a crashed browser or a timeout is retried; a PDF over the cap or a refused document is
 * `failed`. A rendered PDF is stored as the artifact `document.pdf` of the run.
 */
export default defineHandler<HtmlToPdfInput, HtmlToPdfResult, CapabilitySettings<typeof htmlToPdfEnv>>(
  ({ settings, logger }) => {
    const browser = new BrowserHost({
      executablePath: settings.CHROMIUM_PATH,
      launchTimeoutMs: settings.HTML_TO_PDF_TIMEOUT_MS,
      logger,
    });
    const renderPdf = createPdfRenderer({ browser, timeoutMs: settings.HTML_TO_PDF_TIMEOUT_MS, logger });
    return {
      run: async ({ input, storage, signal }) => {
        const rendered = await renderPdf(input, signal);
        if (rendered.kind !== 'rendered') return rendered;
        return storeRenderedPdf(rendered, storage);
      },
      close: () => browser.close(),
    };
  },
);
