import { durationMs, pathVar } from '@svc/config';

/**
 * html-to-pdf's worker variables (runtime `browser`): the system chromium playwright-core drives.
 * Merged into the worker's env schema.
 */
export const htmlToPdfEnv = {
  // Debian's chromium package; the browser image (infra/docker/Dockerfile, target browser) has it.
  CHROMIUM_PATH: pathVar('/usr/bin/chromium').describe(
    'The chromium binary playwright-core drives for html-to-pdf (browser workers).',
  ),
  // ms: one render (page load and PDF) and also the browser's launch; a timeout is retried.
  HTML_TO_PDF_TIMEOUT_MS: durationMs(30_000).describe(
    'ms one render (page load and PDF), and the browser launch, may take; a timeout is retried.',
  ),
};
