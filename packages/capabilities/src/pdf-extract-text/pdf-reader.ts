import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FromPdfThread, PdfReadFailure, ToPdfThread } from './pdf-thread-protocol';

/** Why a PDF could not be read: a fault of the input (the run fails `invalid_input`, no retry). */
export class PdfReadError extends Error {
  constructor(
    readonly reason: PdfReadFailure | 'too_complex' | 'too_slow',
    message: string,
  ) {
    super(message);
    this.name = 'PdfReadError';
  }
}

export interface PdfReaderOptions {
  /** ms: opening the PDF, and each page, must answer within this (a PDF made to spin fails). */
  stepTimeoutMs: number;
  /** MiB: heap of the reading thread; a PDF that needs more fails `too_complex`. */
  maxHeapMb: number;
  /** The thread's script; default pdf-thread.cjs (tests give a misbehaving one). */
  threadEntry?: string;
}

/** An open PDF in its own worker thread (pdf-thread.cjs): pages read one at a time, on request. */
export interface PdfReader {
  readonly pages: number;
  /** Text of page `page` (1-based); throws PdfReadError, or the signal's reason when it aborts. */
  text(page: number, signal: AbortSignal): Promise<string>;
  /** Ends the thread (idempotent). */
  close(): Promise<void>;
}

const THREAD_ENTRY = path.join(__dirname, 'pdf-thread.cjs');

/**
 * Starts a reading thread and opens `data` in it (the bytes are transferred to the thread: `data`
 * is unusable afterwards). Throws PdfReadError when the PDF needs a password or is not a readable
 * PDF, and the signal's reason when it aborts; the thread is gone then. An abort or a step past its
 * deadline terminates the thread at once, even in the middle of a page.
 */
export async function openPdfReader(
  data: Uint8Array,
  signal: AbortSignal,
  options: PdfReaderOptions,
): Promise<PdfReader> {
  signal.throwIfAborted();
  const thread = new Worker(options.threadEntry ?? THREAD_ENTRY, {
    // Plain CommonJS: without the parent's flags (tsx's loader would pass pdf.js's 480 KB bundle
    // through its transform in every new thread: about 1 s more per run, measured).
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb },
    // pdf.js prints warnings about odd PDFs to the console: kept out of the worker's JSON log.
    stdout: true,
    stderr: true,
  });
  thread.stdout.resume();
  thread.stderr.resume();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await thread.terminate();
  };
  // Listened to for the thread's whole life, not only while a request waits: an 'error' with no
  // listener would be an uncaught exception that ends the whole worker process, and a thread that
  // died between two requests must fail the next one at once rather than after its deadline.
  let death: Error | undefined;
  thread.on('error', (err: Error) => {
    death ??= err;
  });
  thread.on('exit', (code: number) => {
    death ??= new Error(`the PDF thread exited (code ${code})`);
    closed = true;
  });

  /** Sends one request and waits for its answer, the thread's death, the deadline or the abort. */
  const ask = (message: ToPdfThread, what: string, stop: AbortSignal, transfer: ArrayBuffer[] = []) =>
    new Promise<FromPdfThread>((resolve, reject) => {
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        stop.removeEventListener('abort', onAbort);
        settle();
      };
      // Any way out but an answer leaves the thread in an unknown state: it is ended.
      const fail = (reason: unknown) =>
        finish(() => {
          void close();
          reject(reason);
        });
      const onMessage = (answer: FromPdfThread) => finish(() => resolve(answer));
      const onError = (err: Error & { code?: string }) =>
        fail(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new PdfReadError('too_complex', `reading ${what} needs more than ${options.maxHeapMb} MiB`)
            : err,
        );
      const onExit = (code: number) =>
        fail(new Error(`the PDF thread exited (code ${code}) while reading ${what}`));
      const onAbort = () => fail(stop.reason);
      const timer = setTimeout(
        () =>
          fail(new PdfReadError('too_slow', `reading ${what} took longer than ${options.stepTimeoutMs} ms`)),
        options.stepTimeoutMs,
      );
      if (stop.aborted || closed || death !== undefined) {
        fail(
          stop.aborted
            ? stop.reason
            : new Error(`the PDF thread is closed (${death?.message ?? 'closed'}); cannot read ${what}`),
        );
        return;
      }
      thread.on('message', onMessage);
      thread.once('error', onError);
      thread.once('exit', onExit);
      stop.addEventListener('abort', onAbort, { once: true });
      thread.postMessage(message, transfer);
    });

  try {
    // Transferred, not copied (up to PDF_EXTRACT_MAX_BYTES): only a buffer that is all `data` may
    // go, never a slice of Node's shared pool; anything else is copied first.
    const whole = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
    const owned =
      whole && data.buffer instanceof ArrayBuffer ? new Uint8Array(data.buffer) : new Uint8Array(data);
    const opened = await ask({ type: 'open', data: owned }, 'the document', signal, [owned.buffer]);
    if (opened.type === 'error') throw new PdfReadError(opened.reason, opened.detail);
    if (opened.type !== 'opened') throw new Error(`unexpected answer ${opened.type} from the PDF thread`);
    return {
      pages: opened.pages,
      close,
      async text(page, pageSignal) {
        const answer = await ask({ type: 'page', page }, `page ${page}`, pageSignal);
        if (answer.type === 'error') throw new PdfReadError(answer.reason, `page ${page}: ${answer.detail}`);
        if (answer.type !== 'page' || answer.page !== page) {
          throw new Error(`unexpected answer ${answer.type} from the PDF thread for page ${page}`);
        }
        return answer.text;
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}
