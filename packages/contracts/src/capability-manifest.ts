import { z } from 'zod';
import {
  CapabilityIdentity,
  CapabilityVersion,
  FileRequirements,
  ManifestExecution,
  Pricing,
} from './capability';
import { toJsonSchema } from './json-schema';

/**
 * What the registry seeds from code: the published record minus derived fields (effective status,
 * timestamps), plus `input`, the zod schema of the quote/run `input` object (spec §4 rule 1: quote
 * and run receive the same input). Its JSON Schema is the describe response's `input_schema`.
 */
export const CapabilityManifest = z
  .object({
    ...CapabilityIdentity,
    version: CapabilityVersion,
    pricing: Pricing,
    file_requirements: FileRequirements,
    execution: ManifestExecution,
    input: z.custom<z.ZodType>((value) => value instanceof z.ZodType, 'must be a zod schema'),
  })
  .strict();
export type CapabilityManifest = z.infer<typeof CapabilityManifest>;

/**
 * JSON Schema (draft 2020-12, request side) of a manifest's input. Throws when the input is not an
 * object schema: spec §4.3 sends `input` as an object (possibly empty), never a bare value.
 */
export function manifestInputJsonSchema(
  manifest: Pick<CapabilityManifest, 'slug' | 'input'>,
): Record<string, unknown> {
  const schema = toJsonSchema(manifest.input, { io: 'input' });
  if (schema.type !== 'object') {
    throw new TypeError(`capability "${manifest.slug}": input must be an object schema`);
  }
  return schema;
}
