import { JSON_INPUT_LIMITS, type JsonInputLimits } from '@svc/contracts';
import { ValidationError } from './app-error';
import { formatIssuePath } from './format-zod-error';

/**
 * One check that makes a client's JSON safe for PostgreSQL and for our own serialisers, applied to
 * every REST body, query, path and header and to every MCP tool's arguments before any route or
 * service call (issue 13 findings 2 and 3):
 * - text holds no NUL (PostgreSQL's text and jsonb refuse U+0000: the request used to end in 500)
 *   and no unpaired UTF-16 surrogate (not Unicode: PostgreSQL refuses `\ud800` in jsonb, and it
 *   cannot be encoded as UTF-8);
 * - numbers are finite (JSON.parse turns `1e400` into Infinity, which JSON cannot carry back);
 * - nesting and size stay within JSON_INPUT_LIMITS (deep input overflowed the RPC client's stack).
 * The walk is iterative, with an explicit stack: a 100,000-level array must not overflow ours.
 */

/** Where a problem is (a zod-style path) and what it is, in format-zod-error.ts's wording. */
export interface UnsafeJsonProblem {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** Where the checked value came from, for the message. */
export interface SafeJsonOptions {
  /** Put before every path, as parseRequest's prefix (`query`); none for bodies (`input.text`). */
  readonly prefix?: string;
  /** Names the value itself when the problem is at its root (default `body`). */
  readonly root?: string;
  readonly limits?: JsonInputLimits;
}

// A bulk problem (too deep, too many values) is named by its first path segments: the field the
// client filled (`input.text`), not a path as long as the nesting.
const NAMED_SEGMENTS = 2;

// A high surrogate not followed by a low one, or a low one not preceded by a high one. Without the
// `u` flag the pattern matches UTF-16 code units, which is what a lone surrogate is.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored or sent as JSON text, or undefined when it can. */
export function unsafeTextReason(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (UNPAIRED_SURROGATE.test(text)) return 'must not contain unpaired UTF-16 surrogates';
  return undefined;
}

/** One value still to visit; `parent` and `key` rebuild its path only when it has a problem. */
interface Frame {
  readonly value: unknown;
  /** Containers around this value (the root has 0). */
  readonly depth: number;
  readonly parent: Frame | undefined;
  readonly key: PropertyKey | undefined;
}

function pathOf(frame: Frame): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function containerEntries(value: unknown[] | Record<string, unknown>): Array<[PropertyKey, unknown]> {
  return Array.isArray(value) ? [...value.entries()] : Object.entries(value);
}

/**
 * The first problem of `value` in document order, or undefined when it is safe. Strings, property
 * names and numbers are checked; so are the nesting of arrays and objects and the count of values,
 * counted as they are found, so the walk's own stack never holds more than `maxNodes` frames.
 */
export function findUnsafeJson(
  value: unknown,
  limits: JsonInputLimits = JSON_INPUT_LIMITS,
): UnsafeJsonProblem | undefined {
  const stack: Frame[] = [{ value, depth: 0, parent: undefined, key: undefined }];
  let nodes = 1;
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const current = frame.value;
    if (typeof current === 'string') {
      const reason = unsafeTextReason(current);
      if (reason !== undefined) return { path: pathOf(frame), message: reason };
      continue;
    }
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return { path: pathOf(frame), message: 'must be a finite number' };
      continue;
    }
    if (!Array.isArray(current) && !isRecord(current)) continue; // boolean, null
    if (frame.depth + 1 > limits.maxDepth) {
      const message = `must not nest arrays and objects more than ${limits.maxDepth} levels deep`;
      return { path: pathOf(frame).slice(0, NAMED_SEGMENTS), message };
    }
    const entries = containerEntries(current);
    // An object's property names count as values too: `{"a":0,"b":0}` is five.
    nodes += Array.isArray(current) ? entries.length : 2 * entries.length;
    if (nodes > limits.maxNodes) {
      const message = `must hold at most ${limits.maxNodes} values (items, properties and their names)`;
      return { path: pathOf(frame).slice(0, NAMED_SEGMENTS - 1), message };
    }
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i] ?? [];
      if (typeof key === 'string') {
        const reason = unsafeTextReason(key);
        // The bad name is not echoed: the message names the object that holds it.
        if (reason !== undefined) return { path: pathOf(frame), message: `property names ${reason}` };
      }
      // Pushed last child first, so children are visited in document order.
      if (key !== undefined) stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
    }
  }
  return undefined;
}

/** `input.text: must not contain NUL characters`: the 422 message of a problem. */
export function unsafeJsonMessage(problem: UnsafeJsonProblem, options: SafeJsonOptions = {}): string {
  const where = formatIssuePath(problem.path, options.prefix) || (options.root ?? 'body');
  return `${where}: ${problem.message}`;
}

/** Throws ValidationError (422) naming the field when `value` is not safe (findUnsafeJson). */
export function assertSafeJson(value: unknown, options: SafeJsonOptions = {}): void {
  const problem = findUnsafeJson(value, options.limits);
  if (problem !== undefined) throw new ValidationError(unsafeJsonMessage(problem, options));
}
