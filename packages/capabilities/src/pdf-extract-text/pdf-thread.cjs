// The worker thread that reads PDFs for pdf-extract-text (pdf-reader.ts starts one per run and
// speaks pdf-thread-protocol.ts with it). A thread, not the job's own event loop: pdf.js is
// CPU-bound for seconds on a large PDF, which would stall the BullMQ lock renewal and the cancel
// subscription of the whole worker process; a thread can also be ended mid-page and given a heap
// limit of its own. And a thread is a plain Node context: pdf.js loads its "fake worker" with a
// dynamic import(), which jest's module sandbox refuses (it needs --experimental-vm-modules).
// Plain CommonJS, not TypeScript, so that it needs no loader: through tsx, pdf.js's 480 KB bundle
// was transformed anew in every thread (about 1.2 s more per run, measured).
'use strict';

const { parentPort } = require('node:worker_threads');
const { PDFParse } = require('pdf-parse');

if (parentPort === null) throw new Error('pdf-thread.cjs runs only as a worker thread');
const port = parentPort;

/** @type {PDFParse | undefined} */
let parser;

/** pdf-parse's error classes, by name (they wrap pdf.js's own): a password is needed, or not a PDF. */
function failureOf(err) {
  return err instanceof Error && err.name === 'PasswordException' ? 'encrypted' : 'unreadable';
}

async function handle(message) {
  try {
    if (message.type === 'open') {
      parser = new PDFParse({
        data: message.data,
        // Defence in depth: no code generated from font programs, no system fonts (text only).
        isEvalSupported: false,
        useSystemFonts: false,
        disableFontFace: true,
      });
      // Page 0 matches no page (they are 1-based): this only loads the document and counts pages.
      const opened = await parser.getText({ partial: [0] });
      port.postMessage({ type: 'opened', pages: opened.total });
      return;
    }
    if (parser === undefined) throw new Error('no PDF is open');
    // pageJoiner '': no "-- 1 of 3 --" markers; the page's own entry is its text.
    const result = await parser.getText({ partial: [message.page], pageJoiner: '' });
    port.postMessage({ type: 'page', page: message.page, text: result.pages[0]?.text ?? '' });
  } catch (err) {
    port.postMessage({
      type: 'error',
      reason: failureOf(err),
      detail: err instanceof Error ? err.message : String(err),
    });
  }
}

port.on('message', (message) => {
  void handle(message);
});
