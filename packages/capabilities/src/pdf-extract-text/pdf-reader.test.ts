import path from 'node:path';
import { openPdfReader } from './pdf-reader';

/**
 * The reader's thread dying while no request waits: it must neither crash the worker process (an
 * 'error' event without a listener is an uncaught exception) nor leave the next page waiting for
 * its deadline.
 */
describe('openPdfReader with a thread that dies between requests', () => {
  it('fails the next page at once with the thread’s fault, and the process lives on', async () => {
    const reader = await openPdfReader(new Uint8Array([1, 2, 3]), new AbortController().signal, {
      stepTimeoutMs: 20_000,
      maxHeapMb: 64,
      threadEntry: path.join(__dirname, 'test-threads', 'dies-after-open.cjs'),
    });
    expect(reader.pages).toBe(3);
    // Let the thread throw while nothing is asked of it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await expect(reader.text(1, new AbortController().signal)).rejects.toThrow(
      /pdf thread fault between requests/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    await reader.close();
  });
});
