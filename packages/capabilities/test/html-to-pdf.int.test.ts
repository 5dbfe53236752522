import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { createLogger } from '@svc/log';
import { FsObjectStore } from '@svc/storage';
import { BrowserHost } from '../src/html-to-pdf/browser-host';
import { DEFAULT_CHROMIUM_PATH } from '../src/html-to-pdf/env';
import { storeRenderedPdf } from '../src/html-to-pdf/pdf-artifact';
import { countPdfPages } from '../src/html-to-pdf/pdf-pages';
import { createPdfRenderer, type PdfRenderer, type RenderOutcome } from '../src/html-to-pdf/render-pdf';
import { HtmlToPdfInput, HtmlToPdfResult } from '../src/html-to-pdf/schema';
import { RetryableRunError, RunCancelledError } from '../src/kit/outcome';
import { createRunStorage } from '../src/kit/run-storage';
import { type LoopbackServer, startLoopbackServer } from './support/loopback-server';

// The html-to-pdf renderer on the machine's real chromium (CHROMIUM_PATH, default the worker's:
// Debian's chromium-headless-shell, which .ci/run installs): PDFs, page counts, the network block,
// timeouts, the size cap, cancellation, a failed launch and a crash; and the rendered PDF stored as
// the run's `document.pdf` artifact.

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;
const logger = createLogger({ service: 'html-to-pdf-test', level: 'silent' });
let host: BrowserHost;
let render: PdfRenderer;
let server: LoopbackServer;
let storageDir: string;
const never = new AbortController().signal;

/** A document of many full pages of text: long enough to render that a cancel lands mid-way. */
const HEAVY_HTML = `<html><body>${Array.from(
  { length: 150 },
  (_, i) =>
    `<section style="page-break-after:always"><h1>Page ${i}</h1>${'<p>lorem ipsum dolor sit amet '.repeat(60)}</section>`,
).join('')}</body></html>`;

beforeAll(async () => {
  host = new BrowserHost({ executablePath: CHROMIUM_PATH, launchTimeoutMs: 20_000, logger });
  render = createPdfRenderer({ browser: host, timeoutMs: 20_000, logger });
  storageDir = await mkdtemp(path.join(tmpdir(), 'html-to-pdf-objects-'));
  server = await startLoopbackServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' });
    response.end();
  });
});

afterAll(async () => {
  await host?.close();
  await server?.close();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

function input(html: string, extra: Partial<HtmlToPdfInput> = {}) {
  return HtmlToPdfInput.parse({ html, ...extra });
}

function completed(outcome: RenderOutcome): { result: { pages: number }; pdf: Buffer } {
  if (outcome.kind !== 'rendered') throw new Error(`expected a rendered PDF, got ${JSON.stringify(outcome)}`);
  return { result: { pages: outcome.pages }, pdf: outcome.pdf };
}

async function openContexts(): Promise<number> {
  return (await host.get()).contexts().length;
}

describe('html-to-pdf renderer (real chromium)', () => {
  it('renders a simple document to a one-page PDF, stored as document.pdf whose figures match its bytes', async () => {
    const rendered = await render(input('<h1>Invoice</h1><p>Total: 10 EUR</p>'), never);
    const { result: render1, pdf } = completed(rendered);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(render1.pages).toBe(1);
    expect(await openContexts()).toBe(0);

    if (rendered.kind !== 'rendered') throw new Error('unreachable');
    const store = new FsObjectStore({ root: storageDir });
    const runId = randomUUID();
    const outcome = await storeRenderedPdf(rendered, createRunStorage(store, runId));
    if (outcome.kind !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(outcome)}`);
    const result = HtmlToPdfResult.parse(outcome.result);
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    expect(result).toEqual({
      content_type: 'application/pdf',
      bytes: pdf.length,
      pages: 1,
      sha256,
      artifact: 'document.pdf',
    });
    expect(outcome.artifacts).toEqual([
      {
        name: 'document.pdf',
        content_type: 'application/pdf',
        size_bytes: pdf.length,
        sha256,
        storage_key: `artifacts/${runId}/document.pdf`,
      },
    ]);
    const stored = await buffer(await store.get(`artifacts/${runId}/document.pdf`));
    expect(stored.equals(pdf)).toBe(true);
  });

  it('counts a forced page break as a second page', async () => {
    const html = '<div style="page-break-after: always">one</div><div>two</div>';
    expect(completed(await render(input(html), never)).result.pages).toBe(2);
  });

  it('honours landscape (A4 landscape is about 842 x 595 pt)', async () => {
    const { pdf } = completed(await render(input('<p>wide</p>', { landscape: true }), never));
    const box = /\/MediaBox\s*\[0 0 ([\d.]+) ([\d.]+)\]/.exec(pdf.toString('latin1'));
    // Chromium rounds to its own units: 842.88 x 595.92 for A4 landscape (portrait would be swapped).
    expect(Math.abs(Number(box?.[1]) - 842)).toBeLessThan(3);
    expect(Math.abs(Number(box?.[2]) - 595)).toBeLessThan(3);
  });

  it('runs no JavaScript: a script that would add a page does nothing', async () => {
    const html =
      '<p>static</p><script>document.body.innerHTML = \'<div style="page-break-after:always">a</div><div>b</div>\';</script>';
    expect(completed(await render(input(html), never)).result.pages).toBe(1);
  });

  it('fetches nothing over the network: a loopback server sees no request', async () => {
    const url = (path: string) => `${server.url}/${path}`;
    const html = `<html><head>
        <link rel="stylesheet" href="${url('style.css')}">
        <style>@import url("${url('import.css')}"); body { background: url("${url('bg.png')}"); }
          @font-face { font-family: X; src: url("${url('font.woff2')}"); } p { font-family: X; }</style>
      </head><body>
        <img src="${url('pixel.png')}"><iframe src="${url('frame.html')}"></iframe>
        <object data="${url('object.pdf')}"></object><video poster="${url('poster.png')}"></video>
        <p>text</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACwAAAAAAQABAAA=">
      </body></html>`;
    const before = server.requests.length;
    expect(completed(await render(input(html), never)).result.pages).toBeGreaterThanOrEqual(1);
    expect(server.requests.slice(before)).toEqual([]);

    // Control: the same document in a context without the block does reach the server, so the
    // assertion above can fail.
    const context = await (await host.get()).newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.setContent(html, { waitUntil: 'load' });
      expect(server.requests.length).toBeGreaterThan(before);
    } finally {
      await context.close();
    }
  });

  it('fails output_too_large (no retry) when the PDF exceeds the cap', async () => {
    const small = createPdfRenderer({ browser: host, timeoutMs: 20_000, maxBytes: 1_000, logger });
    const outcome = await small(input('<p>anything</p>'), never);
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: { code: 'output_too_large', message: expect.stringMatching(/above the limit of 1000 bytes/) },
    });
  });

  it('throws a retryable timeout error when the render outlasts HTML_TO_PDF_TIMEOUT_MS', async () => {
    await host.get(); // warm: the timeout must hit the render, not the launch
    const hasty = createPdfRenderer({ browser: host, timeoutMs: 150, logger });
    const error = await hasty(input(HEAVY_HTML), never).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(RetryableRunError);
    expect(error instanceof RetryableRunError && error.runError).toEqual({
      code: 'timeout',
      message: 'html-to-pdf: rendering took longer than 150 ms',
    });
    expect(await openContexts()).toBe(0);
  });

  it('stops a render in flight when its signal aborts, with the signal reason, and closes its context', async () => {
    const controller = new AbortController();
    const rendering = render(input(HEAVY_HTML), controller.signal).then(
      (outcome) => outcome,
      (err: unknown) => err,
    );
    // In flight: its browser context is open (the document takes hundreds of ms more to render).
    // Aborting at a fixed delay instead raced the render on a fast machine.
    while ((await openContexts()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new RunCancelledError('run-x'));
    // The signal's reason, not a rendered PDF; and the context is closed, so the render is stopped.
    expect(await rendering).toBeInstanceOf(RunCancelledError);
    expect(await openContexts()).toBe(0);
  });

  it('relaunches chromium after a crash: the render that was cut throws, the next one works', async () => {
    const crashed = await host.get();
    const rendering = render(input(HEAVY_HTML), never).then(
      () => undefined,
      (err: unknown) => err,
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    const cdp = await crashed.newBrowserCDPSession();
    // Browser.crash never answers: the process dies.
    void cdp.send('Browser.crash').catch(() => {});
    const error = await rendering;
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(RetryableRunError);
    expect(crashed.isConnected()).toBe(false);

    expect(completed(await render(input('<p>after the crash</p>'), never)).result.pages).toBe(1);
    expect(await host.get()).not.toBe(crashed);
  });

  it('throws (a retriable fault, not a run result) when chromium cannot be launched', async () => {
    const missing = new BrowserHost({
      executablePath: '/nonexistent/chromium',
      launchTimeoutMs: 5_000,
      logger,
    });
    const broken = createPdfRenderer({ browser: missing, timeoutMs: 5_000, logger });
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const error = await broken(input('<p>x</p>'), never).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(RetryableRunError);
      expect(String(error)).toMatch(/nonexistent\/chromium/);
    }
    await missing.close();
  });
});

describe('countPdfPages on chromium output', () => {
  it('agrees with the number of forced pages', async () => {
    const html = Array.from({ length: 5 }, (_, i) => `<div style="page-break-after:always">${i}</div>`).join(
      '',
    );
    const { pdf, result } = completed(await render(input(`${html}<div>last</div>`), never));
    expect(countPdfPages(pdf)).toBe(6);
    expect(result.pages).toBe(6);
  });
});
