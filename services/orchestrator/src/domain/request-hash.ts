import { createHash } from 'node:crypto';
import type { CrtInput } from '@svc/contracts';
import stringify from 'safe-stable-stringify';

/**
 * Canonical JSON: object keys sorted at every depth, no whitespace. `strict` makes values JSON
 * cannot carry (functions, bigint, NaN, Infinity) throw instead of being turned into null or a
 * string, so two different requests cannot hash alike. Circular values throw too. A property whose
 * value is undefined is left out, as JSON.stringify does: it is the same request as an absent one.
 */
const canonicalStringify = stringify.configure({
  deterministic: true,
  strict: true,
  bigint: false,
  circularValue: TypeError,
});

/** `value` as canonical JSON text (sorted keys). Throws TypeError for values JSON cannot represent. */
export function canonicalJson(value: unknown): string {
  const text = canonicalStringify(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

/** SHA-256 (hex) of the canonical JSON of `value`. */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}

/** What one run request stands for (docs/decisions.md C3): the parsed envelope, nothing else. */
export interface RunRequestIdentity {
  slug: string;
  /** The parsed input (defaults applied, crt's apex lowercased): `limit: 100` and no limit are one request. */
  input: unknown;
  quoteId?: string | undefined;
  clientType: string;
}

/**
 * `request_hash` of a run: an Idempotency-Key names exactly this (spec §4 rule 2: a key cannot
 * represent different input). A missing quote_id hashes as null, never as an absent key.
 */
export function runRequestHash(request: RunRequestIdentity): string {
  return canonicalHash({
    slug: request.slug,
    input: request.input,
    quote_id: request.quoteId ?? null,
    client_type: request.clientType,
  });
}

/** The crt run's request hash (the crt endpoint's envelope; same formula as every run). */
export function crtRequestHash(request: Omit<RunRequestIdentity, 'slug'> & { input: CrtInput }): string {
  return runRequestHash({ ...request, slug: 'crt' });
}

/**
 * `input_hash` of a quote (spec §4 rule 1: quote and run receive the same input): of the PARSED
 * input, so `{text}` and `{text, style: "label"}` (the default) are the same input.
 */
export function inputHash(input: unknown): string {
  return canonicalHash(input);
}
