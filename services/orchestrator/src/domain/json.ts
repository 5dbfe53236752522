import type { Prisma } from '@svc/db';

/**
 * Whether `value` is a JSON object Prisma can store in a `Json` column: plain objects, arrays,
 * strings, finite numbers, booleans and null all the way down (an undefined property is dropped by
 * JSON, as an absent one). Parsed capability inputs and plan results are checked with it instead of
 * being cast.
 */
export function isStorableJsonObject(value: unknown): value is Prisma.InputJsonObject {
  return isPlainObject(value) && isJson(value);
}

/** Whether `value` is a JSON array Prisma can store in a `Json` column (elements as isJson allows). */
export function isStorableJsonArray(value: unknown): value is Prisma.InputJsonArray {
  return Array.isArray(value) && value.every(isJson);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      if (value === null) return true;
      if (Array.isArray(value)) return value.every(isJson);
      return isPlainObject(value) && Object.values(value).every((v) => v === undefined || isJson(v));
    default:
      return false;
  }
}

/** `value` as a storable JSON object; TypeError when it is not one (a programming error). */
export function storableJsonObject(value: unknown, what: string): Prisma.InputJsonObject {
  if (!isStorableJsonObject(value)) throw new TypeError(`${what} is not a JSON object`);
  return value;
}

/** `value` as a storable JSON array; TypeError when it is not one (a programming error). */
export function storableJsonArray(value: unknown, what: string): Prisma.InputJsonArray {
  if (!isStorableJsonArray(value)) throw new TypeError(`${what} is not a JSON array`);
  return value;
}
