import { z } from 'zod';

export type JsonSchemaIo = 'input' | 'output';

/**
 * The JSON Schema dialect: 2020-12 for the OpenAPI document and capability `input_schema`s;
 * draft-07 for MCP tool schemas, the dialect the MCP SDK's own zod conversion writes and its
 * clients' default Ajv validates (a 2020-12 `$schema` would not compile there).
 */
export type JsonSchemaTarget = 'draft-2020-12' | 'draft-7';

/**
 * Converts a zod schema to JSON Schema (draft 2020-12 unless `target` says otherwise) with zod 4's native generator.
 *
 * `io` defaults to `'input'`: the main use is describing what a client must SEND (a capability's
 * `input_schema`). In input mode a field with a default is optional (not in `required`), a coerced
 * field shows its accepted type, and a non-strict object does not claim `additionalProperties:
 * false`; in output mode all of that flips, which would tell clients they must send defaulted
 * fields. Pass `'output'` to describe a response.
 *
 * Unrepresentable types (transforms on the output side, custom checks, bigint, ...) throw, so a
 * manifest whose input cannot be described fails loudly at seed time rather than publishing `{}`.
 */
/**
 * Only objects the spec marks "no additional properties" (`.strict()`) say so in JSON Schema. zod's
 * output mode also writes `additionalProperties: false` for plain (key-stripping) objects, which
 * would forbid additive response fields (spec §9.3) and make every shared response component
 * render differently on the request and response side.
 */
export function keepOpenObjectsOpen(ctx: {
  zodSchema: z.core.$ZodTypes;
  jsonSchema: Record<string, unknown>;
}): void {
  const def = ctx.zodSchema._zod.def;
  if (def.type === 'object' && def.catchall === undefined) delete ctx.jsonSchema.additionalProperties;
}

export function toJsonSchema(
  schema: z.ZodType,
  { io = 'input', target = 'draft-2020-12' }: { io?: JsonSchemaIo; target?: JsonSchemaTarget } = {},
): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    target,
    io,
    unrepresentable: 'throw',
    override: keepOpenObjectsOpen,
  });
}
