/**
 * Object keys (object-store.ts): `/`-separated relative paths whose segments are made of
 * `[A-Za-z0-9._-]`, never `.` or `..`, no empty segment (so no leading, trailing or doubled `/`),
 * at most 512 characters. The same rule for both adapters: a key that works on the filesystem
 * works on S3 and cannot escape the store's root directory.
 */

/** characters: longest key accepted (S3 allows 1024 bytes; ours are far shorter). */
export const MAX_OBJECT_KEY_LENGTH = 512;

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** A key that breaks the rule above: a programming error (keys are built by our code, not clients). */
export class InvalidObjectKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    // The key is ours (e.g. `uploads/<uuid>`), never a secret; cut so a runaway value stays readable.
    super(`invalid object key ${JSON.stringify(key.slice(0, 80))}: ${reason}`);
    this.name = 'InvalidObjectKeyError';
  }
}

/** Why `key` is not a valid object key, or null when it is. */
export function objectKeyProblem(key: string): string | null {
  if (key.length === 0) return 'empty';
  if (key.length > MAX_OBJECT_KEY_LENGTH) return `longer than ${MAX_OBJECT_KEY_LENGTH} characters`;
  for (const segment of key.split('/')) {
    if (segment === '') return 'empty path segment (leading, trailing or doubled /)';
    if (segment === '.' || segment === '..') return `segment ${segment} is not allowed`;
    if (!SEGMENT.test(segment)) return 'segments may only hold A-Z a-z 0-9 . _ -';
  }
  return null;
}

/** Throws InvalidObjectKeyError unless `key` is valid; returns it for chaining. */
export function assertObjectKey(key: string): string {
  const problem = objectKeyProblem(key);
  if (problem !== null) throw new InvalidObjectKeyError(key, problem);
  return key;
}
