import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so two structurally equal values always serialise
 * to the same text (JSON.stringify keeps insertion order, which differs between a manifest written
 * in code and the same object read back from jsonb). Array order is kept: it is meaningful (tags
 * are shown in order, JSON Schema `required`/`enum` order is what clients see).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, item]) => [key, sortKeys(item)]));
  }
  return value;
}

/** Hex SHA-256 of the canonical JSON: what `manifest_hash` stores to detect a changed manifest. */
export function sha256Hex(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
