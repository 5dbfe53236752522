import { JSONParser } from '@streamparser/json';

/** The bytes are not a (complete) JSON array. */
export class InvalidJsonError extends Error {
  /** The parser's own words, for logs only (issue 13: a run's error carries no library internals). */
  readonly detail: string | undefined;

  constructor(message: string, detail?: string) {
    super(message);
    this.name = 'InvalidJsonError';
    this.detail = detail;
  }
}

/** The `[` that must open the answer. */
const OPEN_BRACKET = 0x5b;
/** JSON whitespace bytes (RFC 8259 §2) allowed before it. */
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Incremental parse of a top-level JSON array: each element is handed to `onItem` as soon as it is
 * complete and then forgotten (`keepStack: false`), so memory stays bounded by one element, not by
 * the answer (crt.sh answers for large domains run to hundreds of MB). Stops accepting bytes at
 * `maxBytes`: what was parsed so far is kept and `truncated` is set.
 */
export class JsonArrayStream {
  /** Bytes accepted so far (at most `maxBytes`). */
  bytes = 0;
  /** Complete elements handed to `onItem`. */
  items = 0;
  /** True once the byte cap cut the answer: later writes are ignored. */
  truncated = false;
  private readonly parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  private sawOpen = false;
  private failure: Error | undefined;

  constructor(
    private readonly maxBytes: number,
    onItem: (item: unknown) => void,
  ) {
    this.parser.onValue = ({ value }) => {
      this.items += 1;
      onItem(value);
    };
    // Without onError the parser throws from write(); a handler keeps the first cause and lets us
    // say "invalid JSON" once instead of surfacing a tokenizer stack.
    this.parser.onError = (err) => {
      this.failure ??= err;
    };
  }

  /**
   * Feeds one chunk. Returns false once the cap is reached (the caller stops reading). Throws
   * InvalidJsonError when the bytes are not a JSON array.
   */
  write(chunk: Uint8Array): boolean {
    if (this.truncated) return false;
    const room = this.maxBytes - this.bytes;
    const accepted = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    if (!this.sawOpen) this.checkOpening(accepted);
    this.bytes += accepted.byteLength;
    if (accepted.byteLength > 0) this.parser.write(accepted);
    this.throwIfFailed();
    if (accepted.byteLength < chunk.byteLength) {
      this.truncated = true;
      return false;
    }
    return true;
  }

  /** The answer ended: throws InvalidJsonError unless a whole array was read (or the cap cut it). */
  end(): void {
    if (this.truncated) return;
    if (!this.sawOpen) throw new InvalidJsonError('empty answer');
    if (!this.parser.isEnded) throw new InvalidJsonError('answer ended in the middle of the JSON array');
  }

  private checkOpening(chunk: Uint8Array): void {
    for (const byte of chunk) {
      if (WHITESPACE.has(byte)) continue;
      if (byte !== OPEN_BRACKET) throw new InvalidJsonError('answer is not a JSON array');
      this.sawOpen = true;
      return;
    }
  }

  private throwIfFailed(): void {
    if (this.failure) throw new InvalidJsonError('invalid JSON', shorten(this.failure.message));
  }
}

/** Parser messages quote the offending chunk position; keep them one short line. */
function shorten(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
