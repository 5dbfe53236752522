import type { Readable } from 'node:stream';

export interface BodyPart {
  data: Buffer;
  /** True for the part that the body's end completed (it may be empty when the body was). */
  last: boolean;
}

/**
 * Cuts a stream into parts of at least `partSize` bytes (the last one may be shorter), holding
 * one part in memory at a time: the generator reads on only when the consumer asks for the next
 * part, so an upload in progress pauses the body (backpressure). An error of the body is thrown
 * as is from `next()`.
 */
export async function* readParts(
  body: Readable,
  partSize: number,
): AsyncGenerator<BodyPart, void, undefined> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    pending.push(buffer);
    length += buffer.length;
    if (length >= partSize) {
      const data = Buffer.concat(pending, length);
      pending = [];
      length = 0;
      yield { data, last: false };
    }
  }
  yield { data: Buffer.concat(pending, length), last: true };
}
