/**
 * The vault's field types: catalog, validation/normalisation and masking. Pure (no I/O), so the
 * field, extraction-review and fill code share one definition of what a valid value is and how it
 * is shown. docs/decisions.md "The vault" (VF1-VF9) records the accepted inputs and masks per type.
 */
import type { VaultFieldType } from '@svc/contracts';
import { FIELD_TYPE_SPECS, fieldTypeSpec } from './catalog';
import type { NormalizeOptions, NormalizeResult } from './types';

export { FIELD_TYPE_SPECS, fieldTypeSpec } from './catalog';
export type { FieldTypeSpec, NormalizeOptions, NormalizeResult } from './types';

/**
 * Validates a value as sent and returns the form to store, or the rule it breaks (a sentence without
 * the value: put it in the 422 as "<field> <rule>").
 */
export function normalizeFieldValue(
  type: VaultFieldType,
  value: string,
  options?: NormalizeOptions,
): NormalizeResult {
  return fieldTypeSpec(type).normalize(value, options);
}

/** The masked form of a normalised value: the only form any answer carries. */
export function maskValue(type: VaultFieldType, normalizedValue: string): string {
  return fieldTypeSpec(type).mask(normalizedValue);
}

/** What docs and OpenAPI show per type (no functions; JSON-serialisable). */
export interface FieldTypeDoc {
  type: VaultFieldType;
  label: string;
  description: string;
  examples: readonly string[];
  max_length: number;
}

export function fieldTypeDocs(): FieldTypeDoc[] {
  return FIELD_TYPE_SPECS.map(({ type, label, description, examples, maxLength }) => ({
    type,
    label,
    description,
    examples,
    max_length: maxLength,
  }));
}
