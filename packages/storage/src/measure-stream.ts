import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { types } from 'node:util';
import { SizeLimitError, SizeMismatchError } from './size-errors';

/** bytes: what content sniffing needs (magic numbers, a UTF-8 check of the start of a text file). */
export const DEFAULT_HEAD_BYTES = 4096;

export interface MeasureStreamOptions {
  /** bytes: the stream errors with SizeLimitError as soon as more than this have arrived. */
  maxBytes: number;
  /**
   * bytes: the announced size. Ending with fewer errors with SizeMismatchError; more than this is
   * a SizeLimitError (with `limit` = exactBytes) like more than maxBytes. Must not exceed maxBytes.
   */
  exactBytes?: number;
  /** bytes kept from the start for content sniffing; default DEFAULT_HEAD_BYTES. */
  headBytes?: number;
  /**
   * Called once with the first `headBytes` bytes, before they pass on (or at the end, with all of
   * them, for a shorter body). A throw, or a rejected promise, errors the stream with that error.
   */
  onHead?: (head: Buffer) => void | Promise<void>;
}

/** isNativeError as well: an Error made in another realm (jest's VM context) is still passed on as is. */
function asError(value: unknown): Error {
  return value instanceof Error || types.isNativeError(value)
    ? value
    : new Error(String(value), { cause: value });
}

function checkSize(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`measureStream: ${name} must be a non-negative integer, got ${value}`);
  }
}

/**
 * A pass-through that measures what flows through it: counts bytes, computes SHA-256, keeps the
 * head for sniffing, and enforces the size rules above without ever holding more than one chunk
 * and the head. `bytes`, `sha256` and `head` are final once the stream has finished.
 */
export class MeasureStream extends Transform {
  readonly #limit: number;
  readonly #exactBytes: number | undefined;
  readonly #headBytes: number;
  readonly #onHead: MeasureStreamOptions['onHead'];
  readonly #hash = createHash('sha256');
  #bytes = 0;
  #sha256: string | null = null;
  #headParts: Buffer[] = [];
  #headLength = 0;
  /** Set once the head has been handed to onHead (then it no longer grows). */
  #head: Buffer | null = null;

  constructor(options: MeasureStreamOptions) {
    super();
    const { maxBytes, exactBytes, headBytes = DEFAULT_HEAD_BYTES } = options;
    checkSize('maxBytes', maxBytes);
    checkSize('headBytes', headBytes);
    if (exactBytes !== undefined) {
      checkSize('exactBytes', exactBytes);
      if (exactBytes > maxBytes) {
        throw new RangeError(`measureStream: exactBytes ${exactBytes} exceeds maxBytes ${maxBytes}`);
      }
    }
    this.#limit = Math.min(maxBytes, exactBytes ?? maxBytes);
    this.#exactBytes = exactBytes;
    this.#headBytes = headBytes;
    this.#onHead = options.onHead;
  }

  /** Bytes that have arrived so far (including a chunk that broke the limit). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Lowercase hex SHA-256 of all bytes; throws before the stream has ended. */
  get sha256(): string {
    if (this.#sha256 === null)
      throw new Error('MeasureStream: sha256 is known only once the stream has ended');
    return this.#sha256;
  }

  /** The first min(headBytes, bytes) bytes. */
  get head(): Buffer {
    return this.#head ?? Buffer.concat(this.#headParts, this.#headLength);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#bytes += chunk.length;
    if (this.#bytes > this.#limit) {
      callback(new SizeLimitError(this.#limit));
      return;
    }
    this.#hash.update(chunk);
    if (this.#head !== null) {
      callback(null, chunk);
      return;
    }
    const wanted = this.#headBytes - this.#headLength;
    if (wanted > 0 && chunk.length > 0) {
      // A copy: a slice would pin the whole (possibly large) chunk for as long as the head lives.
      const part = Buffer.from(chunk.subarray(0, wanted));
      this.#headParts.push(part);
      this.#headLength += part.length;
    }
    if (this.#headLength < this.#headBytes) {
      callback(null, chunk);
      return;
    }
    this.#reportHead((err) => (err === undefined ? callback(null, chunk) : callback(err)));
  }

  override _flush(callback: TransformCallback): void {
    // Checked before the head is reported: "the body ended early" explains a short body better than
    // whatever a sniff of its truncated start would say.
    if (this.#exactBytes !== undefined && this.#bytes < this.#exactBytes) {
      callback(new SizeMismatchError(this.#bytes, this.#exactBytes));
      return;
    }
    const finish = (err?: Error) => {
      if (err !== undefined) {
        callback(err);
        return;
      }
      this.#sha256 = this.#hash.digest('hex');
      callback();
    };
    if (this.#head === null) this.#reportHead(finish);
    else finish();
  }

  /** Freezes the head and runs onHead (sync or async); `done` gets its error, if any. */
  #reportHead(done: (err?: Error) => void): void {
    const head = Buffer.concat(this.#headParts, this.#headLength);
    this.#head = head;
    this.#headParts = [];
    if (this.#onHead === undefined) {
      done();
      return;
    }
    let result: void | Promise<void>;
    try {
      result = this.#onHead(head);
    } catch (err) {
      done(asError(err));
      return;
    }
    if (result instanceof Promise)
      result.then(
        () => done(),
        (err: unknown) => done(asError(err)),
      );
    else done();
  }
}

/** A new MeasureStream (see there); pipe the body through it, then read `.bytes`/`.sha256`/`.head`. */
export function measureStream(options: MeasureStreamOptions): MeasureStream {
  return new MeasureStream(options);
}
