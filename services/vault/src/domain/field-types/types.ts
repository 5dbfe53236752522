import type { VaultFieldType } from '@svc/contracts';

/**
 * The outcome of validating one value. `rule` is a short sentence naming the rule that failed; it never
 * contains the value (it goes into 422 error messages, which must not echo plaintext).
 */
export type NormalizeResult = { ok: true; value: string } | { ok: false; rule: string };

export interface NormalizeOptions {
  /** The clock for date rules (a date of birth is not in the future); defaults to the current time. */
  now?: Date;
}

/** One entry of the field type catalog: how a type is documented, validated, normalised and masked. */
export interface FieldTypeSpec {
  type: VaultFieldType;
  /** Short human name ("Date of birth"). */
  label: string;
  /** One sentence for docs and OpenAPI: what is accepted and how it is stored. */
  description: string;
  /** Accepted inputs (fictitious or published test values), as a client may send them. */
  examples: readonly string[];
  /** Most characters (Unicode code points) of the value as sent, after trimming. */
  maxLength: number;
  /** Validates a value as sent and returns the form that is stored. Pure. */
  normalize(value: string, options?: NormalizeOptions): NormalizeResult;
  /** The form shown in every answer; takes a value `normalize` returned. */
  mask(normalized: string): string;
}

export function ok(value: string): NormalizeResult {
  return { ok: true, value };
}

export function fail(rule: string): NormalizeResult {
  return { ok: false, rule };
}
