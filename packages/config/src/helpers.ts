import { z } from 'zod';

/** Longest value echoed in an error message; longer ones are cut (they are never secrets: see below). */
const MAX_ECHO = 40;

function echo(value: string): string {
  return JSON.stringify(value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}…` : value);
}

/**
 * An integer variable within [min, max]. The value is echoed in the error: use only for
 * non-secret numbers. `note` explains a special value, e.g. `0 = any free port`.
 */
function integerVar(min: number, max: number, what: string, note?: string) {
  const range = `between ${min} and ${max}${note === undefined ? '' : ` (${note})`}`;
  return z.string().transform((text, ctx) => {
    const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      ctx.addIssue({ code: 'custom', message: `expected ${what} ${range}, got ${echo(text)}` });
      return z.NEVER;
    }
    return value;
  });
}

export interface PortOptions {
  /**
   * Accept 0: the OS picks a free port when the server binds (several replicas on one host). The
   * process must then log the port it got.
   */
  allowZero?: boolean;
}

/** A TCP port, 1..65535 (0..65535 with `allowZero`). */
export function port(defaultPort?: number, options: PortOptions = {}) {
  const schema = options.allowZero
    ? integerVar(0, 65_535, 'an integer', '0 = any free port')
    : integerVar(1, 65_535, 'an integer');
  return defaultPort === undefined ? schema : schema.default(defaultPort);
}

/**
 * A whole number within [min, max] (a count, a size; not secret: the value is echoed). Bounds are
 * non-negative safe integers; a duration is `durationMs()`, a port `port()`.
 */
export function intInRange(min: number, max: number, defaultValue?: number) {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 0 || min > max) {
    throw new RangeError(`intInRange: bad bounds [${min}, ${max}]`);
  }
  const schema = integerVar(min, max, 'an integer');
  return defaultValue === undefined ? schema : schema.default(defaultValue);
}

/**
 * A duration in whole milliseconds, 1..2147483647 (the largest delay setTimeout honours; above it
 * Node fires after 1 ms). Name such variables `*_MS`.
 */
export function durationMs(defaultMs?: number) {
  const schema = integerVar(1, 2_147_483_647, 'a duration in milliseconds');
  return defaultMs === undefined ? schema : schema.default(defaultMs);
}

const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** A boolean: true/false, 1/0, yes/no (any letter case). */
export function booleanFlag(defaultValue?: boolean) {
  const schema = z.string().transform((text, ctx) => {
    const key = text.trim().toLowerCase();
    if (TRUE.has(key)) return true;
    if (FALSE.has(key)) return false;
    ctx.addIssue({ code: 'custom', message: `expected true/false, 1/0 or yes/no, got ${echo(text)}` });
    return z.NEVER;
  });
  return defaultValue === undefined ? schema : schema.default(defaultValue);
}

/**
 * A URL with one of `protocols` (e.g. ['redis:', 'rediss:']). URLs often embed passwords, so the
 * error says only what is expected, never the value.
 */
export function urlVar(protocols: readonly string[], defaultUrl?: string) {
  const expected = `must be a ${protocols.map((p) => `${p}//`).join(' or ')} URL (value not shown)`;
  const schema = z.string().refine((text) => {
    try {
      return protocols.includes(new URL(text).protocol);
    } catch {
      return false;
    }
  }, expected);
  return defaultUrl === undefined ? schema : schema.default(defaultUrl);
}

/**
 * A filesystem path (a directory or file the process reads or writes). Not blank, no surrounding
 * whitespace (a stray space from a .env file would name another directory). Relative
 * paths are kept as given: the caller says what they are relative to. The value is echoed.
 */
export function pathVar(defaultPath?: string) {
  const schema = z.string().superRefine((text, ctx) => {
    if (text.trim() === '') {
      ctx.addIssue({ code: 'custom', message: 'expected a path, got only whitespace' });
    } else if (text !== text.trim()) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a path without leading or trailing spaces, got ${echo(text)}`,
      });
    }
  });
  return defaultPath === undefined ? schema : schema.default(defaultPath);
}

/** One of a fixed set of words; the value is echoed (these are never secrets). Add `.default()` at the use site. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (issue) => `expected one of ${values.join(', ')}, got ${echo(String(issue.input))}`,
  });
}

/** A key as text: hex, or base64 / base64url (padding optional). */
function decodeKey(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return Buffer.from(text, 'base64');
  return undefined;
}

/**
 * One or more secret keys of exactly `bytes` bytes each, comma-separated, each in hex or base64
 * (base64url too): the first is the current one, the others older ones still accepted (rotation).
 * Required; `hint` says how to get one. Values are never echoed, not even in part.
 */
export function secretKeyList(bytes: number, hint: string) {
  const expected = `${bytes} bytes, in hex (${bytes * 2} digits) or base64`;
  return z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === '') {
        ctx.addIssue({ code: 'custom', message: `required: ${hint}` });
        return z.NEVER;
      }
      const parts = text.split(',').map((part) => part.trim());
      const keys: Buffer[] = [];
      for (const [index, part] of parts.entries()) {
        const key = decodeKey(part);
        if (key === undefined || key.length !== bytes) {
          const which = parts.length === 1 ? 'the key' : `key ${index + 1} of ${parts.length}`;
          ctx.addIssue({ code: 'custom', message: `${which} must be ${expected} (value not shown)` });
          return z.NEVER;
        }
        keys.push(key);
      }
      return keys;
    });
}
