import { durationMs, pathVar } from '@svc/config';

/** The chromium a browser worker drives when CHROMIUM_PATH is not set. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium-headless-shell';

/**
 * html-to-pdf's worker variables (runtime `browser`): the system chromium playwright-core drives.
 * Merged into the worker's env schema.
 */
export const htmlToPdfEnv = {
  // Debian's chromium-headless-shell package (chromium's headless mode as a binary of its own, the
  // one playwright uses for headless: measured here, a launch and one PDF cost about 2.6 times less
  // CPU than the full chromium's); the browser image (infra/docker/Dockerfile, target browser) has
  // it. The full browser (/usr/bin/chromium) works too (decisions T6).
  CHROMIUM_PATH: pathVar(DEFAULT_CHROMIUM_PATH).describe(
    'The chromium binary playwright-core drives for html-to-pdf (browser workers).',
  ),
  // ms: one render (page load and PDF) and also the browser's launch; a timeout is retried.
  HTML_TO_PDF_TIMEOUT_MS: durationMs(30_000).describe(
    'ms one render (page load and PDF), and the browser launch, may take; a timeout is retried.',
  ),
};
