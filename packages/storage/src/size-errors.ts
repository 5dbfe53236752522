/**
 * Size failures of a measured stream (measure-stream.ts). Plain errors carrying the numbers: the
 * caller maps them to its own answer (the uploads service: 413 for too long, 422 for too short).
 */

/** More than `limit` bytes arrived; raised as soon as the first byte past the limit does. */
export class SizeLimitError extends Error {
  constructor(readonly limit: number) {
    super(`stream is longer than ${limit} bytes`);
    this.name = 'SizeLimitError';
  }
}

/** The stream ended after `received` bytes where exactly `expected` were announced. */
export class SizeMismatchError extends Error {
  constructor(
    readonly received: number,
    readonly expected: number,
  ) {
    super(`stream ended after ${received} bytes; expected ${expected}`);
    this.name = 'SizeMismatchError';
  }
}
