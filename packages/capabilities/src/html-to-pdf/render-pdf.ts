import { RUN_ERROR_CODES, type RunError, type RunMetrics } from '@svc/contracts';
import type { Logger } from '@svc/log';
import { type BrowserContext, errors, type Route } from 'playwright-core';
import { type FailedOutcome, RetryableRunError } from '../kit/outcome';
import type { BrowserHost } from './browser-host';
import { countPdfPages, looksLikePdf } from './pdf-pages';
import { type HtmlToPdfInput, PDF_MAX_BYTES } from './schema';

export interface PdfRendererOptions {
  browser: BrowserHost;
  /** ms: HTML_TO_PDF_TIMEOUT_MS, one render from a new context to the PDF bytes. */
  timeoutMs: number;
  /** bytes: larger PDFs fail the run with output_too_large. Default PDF_MAX_BYTES (8 MiB). */
  maxBytes?: number;
  logger: Logger;
}

/**
 * What a render ends with: the PDF in memory (at most `maxBytes`, 8 MiB by default) with its page
 * count, for the job to store as the run's artifact (pdf-artifact.ts), or a failed outcome.
 */
export type RenderOutcome =
  | { kind: 'rendered'; pdf: Buffer; pages: number; metrics: RunMetrics }
  | FailedOutcome;

/** Renders one html-to-pdf input; throws on faults worth a retry and when `signal` aborts. */
export type PdfRenderer = (input: HtmlToPdfInput, signal: AbortSignal) => Promise<RenderOutcome>;

/**
 * Schemes a page may load (design "Worker": no SSRF). `data:` is how a document embeds images and
 * fonts; `about:` is the blank document setContent writes into. Every other request, top-level
 * (a meta refresh) or sub-resource, is aborted before it leaves the browser. `file:` URLs never get
 * here: chromium itself refuses them to a page that is not a file (checked by hand on chromium 156).
 */
function isAllowedUrl(url: string): boolean {
  return url.startsWith('data:') || url.startsWith('about:');
}

/**
 * html-to-pdf on the process's shared chromium: a fresh context per run with JavaScript off and
 * every request except data:/about: aborted; `setContent`, then `page.pdf` with the input's paper
 * settings. The context is closed when the render ends, times out, or `signal` aborts (cancel,
 * shutdown); the render then rejects at once, without waiting for playwright to notice.
 *
 * Outcomes: rendered (the PDF bytes and page count; the job stores them as an artifact); failed
 * `output_too_large` above `maxBytes`; failed `render_failed` when chromium refuses the document
 * (the browser still up, not a timeout). Throws: launch failures and crashes (plain errors: retried,
 * on a relaunched browser), a timeout (RetryableRunError `timeout`), the signal's reason on abort.
 */
export function createPdfRenderer(options: PdfRendererOptions): PdfRenderer {
  const maxBytes = options.maxBytes ?? PDF_MAX_BYTES;
  const timeoutError: RunError = {
    code: RUN_ERROR_CODES.timeout,
    message: `html-to-pdf: rendering took longer than ${options.timeoutMs} ms`,
  };

  return async (input, signal) => {
    signal.throwIfAborted();
    const started = Date.now();
    const browser = await options.browser.get();
    const deadline = AbortSignal.timeout(options.timeoutMs);
    // A crash can leave playwright calls pending until the deadline: stop on the disconnect itself.
    const disconnected = new AbortController();
    const onDisconnect = () => disconnected.abort();
    browser.once('disconnected', onDisconnect);
    if (!browser.isConnected()) disconnected.abort();
    const stop = AbortSignal.any([signal, deadline, disconnected.signal]);
    /** Why the render stopped early, if it did: the caller's reason, a crash (retried), our deadline. */
    const stopped = (): unknown => {
      if (signal.aborted) return signal.reason;
      if (disconnected.signal.aborted)
        return new Error('html-to-pdf: chromium disconnected during the render');
      if (deadline.aborted) return new RetryableRunError(timeoutError);
      return undefined;
    };
    let context: BrowserContext | undefined;
    const work = async () => {
      const created = await browser.newContext({ javaScriptEnabled: false, serviceWorkers: 'block' });
      if (stop.aborted) {
        // Stopped while the context was being made: the finally below has already run.
        await created.close().catch(() => {});
        throw stopped();
      }
      context = created;
      return renderInContext(created, input, options.timeoutMs);
    };
    let pdf: Buffer;
    try {
      pdf = await untilAborted(work(), stop);
    } catch (err) {
      const reason =
        stopped() ?? (err instanceof errors.TimeoutError ? new RetryableRunError(timeoutError) : undefined);
      if (reason !== undefined) throw reason;
      // A crashed browser is a fault of ours: retried, on a new one (BrowserHost relaunches).
      if (!browser.isConnected()) throw err instanceof Error ? err : new Error(errorMessage(err));
      // The browser is fine and had time left: chromium refused this document (a result of the input).
      options.logger.warn({ err: errorMessage(err) }, 'html-to-pdf: chromium could not render the document');
      return {
        kind: 'failed',
        error: {
          code: RUN_ERROR_CODES.renderFailed,
          message: 'html-to-pdf: the document could not be rendered to PDF',
        },
        metrics: { provider: 'chromium', provider_ms: Date.now() - started },
      };
    } finally {
      browser.off('disconnected', onDisconnect);
      // Also what stops a render in flight: its page and requests go with the context.
      await context?.close().catch(() => {});
    }
    return outcomeOf(pdf, maxBytes, { provider: 'chromium', provider_ms: Date.now() - started });
  };
}

/** Loads the document into a new page of `context` and prints it; throws what playwright throws. */
async function renderInContext(context: BrowserContext, input: HtmlToPdfInput, timeoutMs: number) {
  await context.route('**/*', (route: Route) =>
    isAllowedUrl(route.request().url()) ? route.continue() : route.abort('blockedbyclient'),
  );
  const page = await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  await page.setContent(input.html, { waitUntil: 'load' });
  const margin = `${input.margin_mm}mm`;
  return page.pdf({
    format: input.format,
    landscape: input.landscape,
    printBackground: input.print_background,
    margin: { top: margin, right: margin, bottom: margin, left: margin },
  });
}

function outcomeOf(pdf: Buffer, maxBytes: number, metrics: RunMetrics): RenderOutcome {
  if (pdf.length > maxBytes) {
    return {
      kind: 'failed',
      error: {
        code: RUN_ERROR_CODES.outputTooLarge,
        message: `html-to-pdf: the PDF is ${pdf.length} bytes, above the limit of ${maxBytes} bytes`,
      },
      metrics,
    };
  }
  const pages = countPdfPages(pdf);
  if (!looksLikePdf(pdf) || pages < 1) {
    return {
      kind: 'failed',
      error: {
        code: RUN_ERROR_CODES.renderFailed,
        message: 'html-to-pdf: chromium produced no readable PDF',
      },
      metrics,
    };
  }
  return { kind: 'rendered', pdf, pages, metrics };
}

/**
 * `work`, or the signal's reason as soon as it aborts. Playwright calls do not take a signal, and one
 * cut by closing its context can stay pending for ever (seen with `newPage` on 1.65): the run must not
 * wait on it. The abandoned promise's late rejection is swallowed.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
