import { openPdfReader, PdfReadError } from '@svc/capabilities';
import { ServiceUnavailableError, ValidationError } from '@svc/errors';
import { codePointLength } from '@svc/pii-detect';

/** Pages of a PDF the vault reads for candidates (as many as a fill template may have). */
export const EXTRACTION_MAX_PAGES = 50;

/**
 * The reading thread's bounds: ms per step (opening, each page) and MiB of heap (the PDF reader's
 * default heap). The whole read, waiting for a slot included, must end within `totalMs`: the
 * gateway waits 45 s for a document call (services/gateway main.ts VAULT_DOCUMENT_CALL_MS).
 */
export const PDF_READ_LIMITS = { stepTimeoutMs: 10_000, maxHeapMb: 512, totalMs: 30_000 } as const;
/** PDFs read at once per process (each in a thread of up to maxHeapMb); others wait for a slot. */
export const PDF_READ_SLOTS = 2;

export interface PdfPagesOptions {
  stepTimeoutMs: number;
  maxHeapMb: number;
  totalMs: number;
  /** Code points of text over all pages; more is refused (422). */
  maxCharacters: number;
}

/**
 * The text of every page of a PDF, read with the project's reader (pdf.js in a thread of its own,
 * bounded in time per step and in heap: packages/capabilities pdf-reader.ts). `bytes` is
 * transferred to the thread and unusable afterwards. A PDF that needs a password, is damaged or not
 * a PDF, has too many pages or too much text, or is too slow or too big to read is the client's
 * fault: 422 with a message that never quotes the document (pdf.js's own words stay out of it).
 */
export async function readPdfPages(bytes: Uint8Array, options: PdfPagesOptions): Promise<string[]> {
  // The whole read: each step has its own deadline, this bounds their sum and the wait for a slot.
  const signal = AbortSignal.timeout(options.totalMs);
  await slots.acquire(signal);
  try {
    return await readPages(bytes, options, signal);
  } finally {
    slots.release();
  }
}

async function readPages(
  bytes: Uint8Array,
  options: PdfPagesOptions,
  signal: AbortSignal,
): Promise<string[]> {
  let reader: Awaited<ReturnType<typeof openPdfReader>>;
  try {
    reader = await openPdfReader(bytes, signal, options);
  } catch (err) {
    throw readFailure(err);
  }
  try {
    if (reader.pages > EXTRACTION_MAX_PAGES) {
      throw new ValidationError(
        `document PDF has ${reader.pages} pages; at most ${EXTRACTION_MAX_PAGES} are read`,
      );
    }
    const pages: string[] = [];
    let characters = 0;
    for (let page = 1; page <= reader.pages; page += 1) {
      const text = await reader.text(page, signal);
      characters += codePointLength(text);
      if (characters > options.maxCharacters) {
        throw new ValidationError(`document text is longer than ${options.maxCharacters} characters`);
      }
      pages.push(text);
    }
    return pages;
  } catch (err) {
    throw readFailure(err);
  } finally {
    await reader.close();
  }
}

function readFailure(err: unknown): unknown {
  if (err instanceof PdfReadError) {
    switch (err.reason) {
      case 'encrypted':
        return new ValidationError('document PDF is encrypted (it needs a password); upload it without one');
      case 'unreadable':
        return new ValidationError('document is not a readable PDF (damaged or not a PDF)');
      case 'too_complex':
      case 'too_slow':
        return new ValidationError(`document PDF is too complex to read (${err.reason.replace('_', ' ')})`);
    }
  }
  if (err instanceof DOMException && err.name === 'TimeoutError') {
    return new ValidationError('document PDF took too long to read');
  }
  return err;
}

/** A counting semaphore: at most PDF_READ_SLOTS reads run; a wait past the deadline is a 503. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(count: number) {
    this.free = count;
  }

  async acquire(signal: AbortSignal): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(grant);
        if (index !== -1) this.waiting.splice(index, 1);
        reject(new ServiceUnavailableError('the vault is busy reading other PDFs; try again shortly'));
      };
      this.waiting.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Hands the slot to the next waiter, if any, else frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.free += 1;
    else next();
  }
}

const slots = new Slots(PDF_READ_SLOTS);
