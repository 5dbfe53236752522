import type { Readable } from 'node:stream';

/** The stream held more than the bytes a run may read into memory. */
export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
    this.name = 'TooLargeError';
  }
}

/**
 * Reads `stream` whole into one Buffer, for inputs a library can only take in memory (a PDF for
 * pdf.js, a probe's stored bytes). Stops reading and throws TooLargeError as soon as more than
 * `maxBytes` arrived, and the signal's reason when it aborts; the stream is destroyed either way.
 */
export async function readBounded(stream: Readable, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const onAbort = () => stream.destroy();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of stream) {
      const buffer: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      if (bytes > maxBytes) throw new TooLargeError(maxBytes);
      chunks.push(buffer);
    }
    signal?.throwIfAborted();
    return Buffer.concat(chunks, bytes);
  } catch (err) {
    // An abort surfaces as the stream's premature close: say why it stopped instead.
    signal?.throwIfAborted();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    stream.destroy();
  }
}
