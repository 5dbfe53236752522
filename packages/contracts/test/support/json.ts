/** Typed access to untyped JSON documents in assertions, without `any`. */
export type JsonObject = { [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Walks `keys` from `node`; undefined as soon as a step is missing. */
export function get(node: unknown, ...keys: string[]): unknown {
  let current = node;
  for (const key of keys) {
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isObject(current)) current = current[key];
    else return undefined;
  }
  return current;
}

/** Like get(), but the result must be an object (throws with the path otherwise). */
export function obj(node: unknown, ...keys: string[]): JsonObject {
  const value = get(node, ...keys);
  if (!isObject(value)) throw new Error(`expected an object at ${keys.join('.')}`);
  return value;
}

/** Like get(), but the result must be an array. */
export function arr(node: unknown, ...keys: string[]): unknown[] {
  const value = get(node, ...keys);
  if (!Array.isArray(value)) throw new Error(`expected an array at ${keys.join('.')}`);
  return value;
}
