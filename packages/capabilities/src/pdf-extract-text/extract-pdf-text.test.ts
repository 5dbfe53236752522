import { PassThrough } from 'node:stream';
import { PDFDocument, PDFHexString, StandardFonts } from 'pdf-lib';
import { createTempStore, sha256, type TempStore } from '../../test/support/temp-store';
import { type CapabilityOutcome, RunCancelledError } from '../kit/outcome';
import type { RunStorage } from '../kit/run-storage';
import { extractPdfText, type PdfExtractOptions } from './extract-pdf-text';

// pdf-extract-text on PDFs made here with pdf-lib (known text per page), read back by pdf.js in
// its worker thread, with the text artifact in a real fs object store of a temp dir.

const OPTIONS: PdfExtractOptions = { stepTimeoutMs: 20_000, maxHeapMb: 256 };
const never = new AbortController().signal;
let temp: TempStore;

beforeAll(async () => {
  temp = await createTempStore();
});

afterAll(async () => {
  await temp?.close();
});

/** A PDF whose page i (1-based) shows `texts[i - 1]`, one line per `\n`. */
async function pdfOf(texts: readonly string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of texts) {
    const page = doc.addPage([400, 400]);
    text.split('\n').forEach((line, i) => {
      page.drawText(line, { x: 40, y: 340 - i * 20, size: 12, font });
    });
  }
  return Buffer.from(await doc.save());
}

async function run(pdf: Buffer, options: Partial<PdfExtractOptions> = {}, signal = never) {
  const file = await temp.upload('report.pdf', 'application/pdf', pdf);
  const { runId, storage } = temp.run();
  const outcome = await extractPdfText({ input: { upload_id: file.upload_id }, file, storage }, signal, {
    ...OPTIONS,
    ...options,
  });
  return { outcome, runId, file };
}

function completed(outcome: CapabilityOutcome) {
  if (outcome.kind !== 'completed') throw new Error(`expected completed, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const PAGES = ['Invoice 2024-001\nTotal: 120 EUR', 'Second page text', 'Third and last page'];

describe('extractPdfText', () => {
  it('reads the text of every page and stores it as text.txt, pages separated by form feeds', async () => {
    const { outcome, runId, file } = await run(await pdfOf(PAGES));
    const done = completed(outcome);
    expect(done.result).toMatchObject({
      upload_id: file.upload_id,
      pages: 3,
      truncated: false,
      text_artifact: 'text.txt',
    });
    const pageTexts = (done.result.page_texts ?? []) as { page: number; text: string; truncated: boolean }[];
    expect(pageTexts.map((page) => page.page)).toEqual([1, 2, 3]);
    expect(pageTexts[0]?.text).toMatch(/Invoice 2024-001\s+Total: 120 EUR/);
    expect(pageTexts[1]?.text.trim()).toBe('Second page text');
    expect(pageTexts[2]?.text.trim()).toBe('Third and last page');
    expect(pageTexts.every((page) => !page.truncated)).toBe(true);

    const key = `artifacts/${runId}/text.txt`;
    const stored = await temp.read(key);
    const whole = stored.toString('utf8');
    expect(whole.split('\f').map((page) => page.trim())).toEqual(pageTexts.map((page) => page.text.trim()));
    expect(done.result.characters).toBe([...whole.replaceAll('\f', '')].length);
    expect(done.artifacts).toEqual([
      {
        name: 'text.txt',
        content_type: 'text/plain',
        size_bytes: stored.length,
        sha256: sha256(stored),
        storage_key: key,
      },
    ]);
  });

  it('cuts the JSON at the character budget, marks what was cut, and still stores everything', async () => {
    const { outcome, runId } = await run(await pdfOf(['a'.repeat(30), 'b'.repeat(30), 'c'.repeat(30)]), {
      resultMaxChars: 40,
    });
    const done = completed(outcome);
    const pageTexts = (done.result.page_texts ?? []) as {
      text: string;
      characters: number;
      truncated: boolean;
    }[];
    expect(pageTexts.map((page) => [page.text.length, page.characters, page.truncated])).toEqual([
      [30, 30, false],
      [10, 30, true],
      [0, 30, true],
    ]);
    expect(done.result).toMatchObject({ truncated: true, characters: 90 });
    expect((await temp.read(`artifacts/${runId}/text.txt`)).toString()).toBe(
      `${'a'.repeat(30)}\f${'b'.repeat(30)}\f${'c'.repeat(30)}`,
    );
  });

  it('fails invalid_input for a PDF with more pages than allowed, storing nothing', async () => {
    const { outcome, runId } = await run(await pdfOf(PAGES), { maxPages: 2 });
    expect(outcome).toEqual({
      kind: 'failed',
      error: { code: 'invalid_input', message: 'pdf-extract-text: the PDF has 3 pages; at most 2 are read' },
    });
    expect(await temp.store.stat(`artifacts/${runId}/text.txt`)).toBeNull();
  });

  it('fails invalid_input for bytes that are not a PDF', async () => {
    const { outcome } = await run(Buffer.from('%PDF-1.7\nthis is not really a pdf at all\n'));
    expect(outcome).toEqual({
      kind: 'failed',
      error: {
        code: 'invalid_input',
        message: 'pdf-extract-text: the file is not a readable PDF (damaged or not a PDF)',
      },
      // pdf.js's own words stay in the worker's log (issue 13).
      detail: expect.any(String),
    });
  });

  it('fails invalid_input for an encrypted PDF that needs a password', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    // Standard security handler, revision 2, whose /U does not match the empty user password.
    const encrypt = doc.context.obj({
      Filter: 'Standard',
      V: 1,
      R: 2,
      O: PDFHexString.of('4f'.repeat(32)),
      U: PDFHexString.of('55'.repeat(32)),
      P: -4,
    });
    doc.context.trailerInfo.Encrypt = doc.context.register(encrypt);
    const id = PDFHexString.of('0123456789abcdef0123456789abcdef');
    doc.context.trailerInfo.ID = doc.context.obj([id, id]);
    const { outcome } = await run(Buffer.from(await doc.save({ useObjectStreams: false })));
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(/the PDF is encrypted \(it needs a password/),
      },
    });
  });

  it('fails invalid_input when reading takes longer than the step deadline (the thread is ended)', async () => {
    const { outcome, runId } = await run(await pdfOf(PAGES), { stepTimeoutMs: 1 });
    expect(outcome).toEqual({
      kind: 'failed',
      error: {
        code: 'invalid_input',
        message:
          'pdf-extract-text: the PDF is too complex to read: reading the document took longer than 1 ms',
      },
    });
    expect(await temp.store.stat(`artifacts/${runId}/text.txt`)).toBeNull();
  });

  it('fails invalid_input when the reading thread runs out of its heap (the process lives on)', async () => {
    const { outcome } = await run(await pdfOf(PAGES), { maxHeapMb: 4 });
    expect(outcome).toEqual({
      kind: 'failed',
      error: {
        code: 'invalid_input',
        message:
          'pdf-extract-text: the PDF is too complex to read: reading the document needs more than 4 MiB',
      },
    });
  });

  it('reads an empty-text PDF (no text layer) as pages without text', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    const { outcome } = await run(Buffer.from(await doc.save()));
    expect(completed(outcome).result).toMatchObject({ pages: 1, characters: 0, truncated: false });
  });

  it('stops between pages when the signal aborts: rejects with its reason and stores nothing', async () => {
    // The abort lands at a known point, not after a guessed delay: while the first page's text is
    // written (the storage below aborts on that write), so the read must stop before the second page
    // of three.
    const file = await temp.upload('three-pages.pdf', 'application/pdf', await pdfOf(PAGES));
    const { runId, storage } = temp.run();
    const controller = new AbortController();
    let pagesWritten = 0;
    const abortingStorage: RunStorage = {
      ...storage,
      writeArtifact(name, body, options) {
        // extractPdfText writes the text page by page into a PassThrough it hands to storage.
        if (!(body instanceof PassThrough)) throw new Error('the text artifact is not a PassThrough');
        const write = body.write.bind(body);
        // The text stream's writes are counted (one per page) and the first aborts the run.
        body.write = ((...args: Parameters<typeof write>) => {
          pagesWritten += 1;
          const ok = write(...args);
          if (pagesWritten === 1) controller.abort(new RunCancelledError(runId));
          return ok;
        }) as typeof body.write;
        return storage.writeArtifact(name, body, options);
      },
    };
    const running = extractPdfText(
      { input: { upload_id: file.upload_id }, file, storage: abortingStorage },
      controller.signal,
      OPTIONS,
    );
    await expect(running).rejects.toBeInstanceOf(RunCancelledError);
    expect(pagesWritten).toBe(1);
    expect(await temp.store.stat(`artifacts/${runId}/text.txt`)).toBeNull();
  });
});
