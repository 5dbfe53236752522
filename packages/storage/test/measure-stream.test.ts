import { createHash, randomBytes } from 'node:crypto';
import { PassThrough, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type MeasureStream, measureStream, SizeLimitError, SizeMismatchError } from '../src';

/** Collects what passed through the measure stream. */
function collector(): { sink: Writable; received: () => Buffer } {
  const parts: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      parts.push(chunk);
      callback();
    },
  });
  return { sink, received: () => Buffer.concat(parts) };
}

async function run(chunks: Buffer[], measure: MeasureStream): Promise<Buffer> {
  const { sink, received } = collector();
  await pipeline(Readable.from(chunks), measure, sink);
  return received();
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Splits `bytes` into chunks of the given sizes (cycled). */
function chunked(bytes: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  let offset = 0;
  for (let i = 0; offset < bytes.length; i += 1) {
    const size = sizes[i % sizes.length] ?? 1;
    out.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return out;
}

describe('measureStream', () => {
  it('passes exactly the announced bytes through and reports size, SHA-256 and head', async () => {
    const bytes = randomBytes(10_000);
    const measure = measureStream({ maxBytes: 10_000, exactBytes: 10_000, headBytes: 100 });
    const out = await run(chunked(bytes, [1, 7, 4096, 333]), measure);
    expect(out.equals(bytes)).toBe(true);
    expect(measure.bytes).toBe(10_000);
    expect(measure.sha256).toBe(sha256(bytes));
    expect(measure.head.equals(bytes.subarray(0, 100))).toBe(true);
  });

  it('computes the SHA-256 of 1 MiB in uneven chunks exactly as crypto does over the whole', async () => {
    const bytes = randomBytes(1024 * 1024);
    const measure = measureStream({ maxBytes: 2 * 1024 * 1024 });
    await run(chunked(bytes, [65_536, 13, 999, 1]), measure);
    expect(measure.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(measure.sha256).toBe(sha256(bytes));
    expect(measure.bytes).toBe(bytes.length);
  });

  it('errors with SizeLimitError as soon as more than maxBytes arrive, before the source ends', async () => {
    const source = new PassThrough();
    const measure = measureStream({ maxBytes: 5 });
    const { sink } = collector();
    const done = pipeline(source, measure, sink);
    source.write(Buffer.from('abc'));
    source.write(Buffer.from('def')); // byte 6: over the limit; the source never ends
    const err = await done.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SizeLimitError);
    expect(err).toMatchObject({ limit: 5 });
  });

  it('treats more than exactBytes as a SizeLimitError with limit = exactBytes', async () => {
    const measure = measureStream({ maxBytes: 100, exactBytes: 5 });
    const err = await run([Buffer.from('abcdef')], measure).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SizeLimitError);
    expect(err).toMatchObject({ limit: 5 });
  });

  it('errors with SizeMismatchError when fewer than exactBytes arrive', async () => {
    const measure = measureStream({ maxBytes: 10, exactBytes: 10 });
    const err = await run([Buffer.from('abc'), Buffer.from('defg')], measure).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SizeMismatchError);
    expect(err).toMatchObject({ received: 7, expected: 10 });
  });

  it('accepts a shorter body when no exactBytes is set', async () => {
    const measure = measureStream({ maxBytes: 10 });
    await run([Buffer.from('abc')], measure);
    expect(measure.bytes).toBe(3);
  });

  it('hands the head to onHead once, across chunk boundaries, before those bytes pass on', async () => {
    const bytes = Buffer.from('0123456789abcdefghij');
    const heads: string[] = [];
    const { sink, received } = collector();
    const measure = measureStream({
      maxBytes: 100,
      headBytes: 8,
      onHead: (head) => {
        heads.push(`${head.toString()}|passed:${received().length}`);
      },
    });
    await pipeline(Readable.from(chunked(bytes, [3])), measure, sink);
    // Chunks 012 and 345 have passed; 678 completes the head and waits for onHead.
    expect(heads).toEqual(['01234567|passed:6']);
    expect(received().equals(bytes)).toBe(true);
  });

  it('aborts with the very error onHead throws, and the rest of the body does not pass', async () => {
    const refusal = new Error('content is not application/pdf');
    const { sink, received } = collector();
    const measure = measureStream({
      maxBytes: 1_000,
      headBytes: 4,
      onHead: () => {
        throw refusal;
      },
    });
    const err = await pipeline(Readable.from(chunked(Buffer.alloc(100, 1), [2])), measure, sink).catch(
      (e: unknown) => e,
    );
    expect(err).toBe(refusal);
    expect(received().length).toBe(2); // only the chunk before the head was complete
  });

  it('propagates a rejected async onHead as is', async () => {
    const refusal = new Error('looks like image/png');
    const measure = measureStream({
      maxBytes: 1_000,
      headBytes: 4,
      onHead: async () => Promise.reject(refusal),
    });
    await expect(run([Buffer.alloc(10)], measure)).rejects.toBe(refusal);
  });

  it('calls onHead at the end with the whole body when it is shorter than headBytes (also when empty)', async () => {
    const seen: string[] = [];
    const short = measureStream({ maxBytes: 100, onHead: (head) => void seen.push(head.toString()) });
    await run([Buffer.from('ab'), Buffer.from('c')], short);
    const empty = measureStream({ maxBytes: 100, onHead: (head) => void seen.push(`empty:${head.length}`) });
    await run([], empty);
    expect(seen).toEqual(['abc', 'empty:0']);
    expect(empty.sha256).toBe(sha256(Buffer.alloc(0)));
  });

  it('does not call onHead for a body that ended short of exactBytes', async () => {
    const onHead = jest.fn();
    const measure = measureStream({ maxBytes: 100, exactBytes: 50, onHead });
    await expect(run([Buffer.from('abc')], measure)).rejects.toBeInstanceOf(SizeMismatchError);
    expect(onHead).not.toHaveBeenCalled();
  });

  it('has no sha256 before the stream has ended', () => {
    expect(() => measureStream({ maxBytes: 1 }).sha256).toThrow(/once the stream has ended/);
  });

  it('refuses options that can never be met', () => {
    expect(() => measureStream({ maxBytes: 5, exactBytes: 6 })).toThrow(RangeError);
    expect(() => measureStream({ maxBytes: -1 })).toThrow(RangeError);
    expect(() => measureStream({ maxBytes: 1.5 })).toThrow(RangeError);
  });
});
