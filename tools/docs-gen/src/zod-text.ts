import { z } from 'zod';

/**
 * Short text of a zod schema for a table cell: its exported name when it has one (`RunRecord`),
 * else its top-level fields (`{ run_id, reason? }`). Names come from a map the caller builds from a
 * module's exports (`schemaNames`), so the doc names exactly what the code exports.
 */
export type SchemaNames = ReadonlyMap<z.ZodType, string>;

/** Every zod schema among a module's exports, by its export name (the first name wins). */
export function schemaNames(modules: ReadonlyArray<Readonly<Record<string, unknown>>>): SchemaNames {
  const names = new Map<z.ZodType, string>();
  for (const exports of modules) {
    for (const [name, value] of Object.entries(exports)) {
      if (!(value instanceof z.ZodType)) continue;
      // One schema exported under several names (`UploadId = Uuid`): the shortest, then A-Z, names it.
      const known = names.get(value);
      if (
        known === undefined ||
        name.length < known.length ||
        (name.length === known.length && name < known)
      ) {
        names.set(value, name);
      }
    }
  }
  return names;
}

/** The description a schema or a catalog entry carries (`.describe()`, or a `description` field). */
export function descriptionOf(value: unknown): string | undefined {
  if (value instanceof z.ZodType) return value.description;
  if (typeof value === 'object' && value !== null && 'description' in value) {
    const { description } = value;
    return typeof description === 'string' ? description : undefined;
  }
  return undefined;
}

/** True when `undefined` passes the schema (an optional field, or one with a default). */
function acceptsUndefined(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** The field names of an object schema, optional ones marked `?`. */
export function fieldList(schema: z.ZodObject): string {
  const fields = Object.entries(schema.shape).map(([key, field]) =>
    field instanceof z.ZodType && acceptsUndefined(field) ? `${key}?` : key,
  );
  return fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`;
}

/** Name or fields of `schema` (see the module comment); unions list their discriminator values. */
export function schemaText(schema: z.ZodType, names: SchemaNames): string {
  const name = names.get(schema);
  if (name !== undefined) return name;
  if (schema instanceof z.ZodObject) return fieldList(schema);
  if (schema instanceof z.ZodArray && schema.element instanceof z.ZodType) {
    return `${schemaText(schema.element, names)}[]`;
  }
  const inner = unwrapOptional(schema);
  if (inner !== schema) return `${schemaText(inner, names)}?`;
  return schema.type;
}

/** The schema inside `.optional()`, or `schema` itself. */
function unwrapOptional(schema: z.ZodType): z.ZodType {
  if (!(schema instanceof z.ZodOptional)) return schema;
  const inner: unknown = schema.unwrap();
  return inner instanceof z.ZodType ? inner : schema;
}

/**
 * The fields of a message payload, one level deep, each with its schema's name when it has one:
 * `run_id, input: PiiRedactInput, files: ResolvedFile[]`. A discriminated union shows the
 * discriminator's values instead (RunReport: `event: started | retrying | …`).
 */
export function payloadText(schema: z.ZodType, names: SchemaNames): string {
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const key = schema.def.discriminator;
    const values = schema.options.flatMap((option) => {
      if (!(option instanceof z.ZodObject)) return [];
      const literal = option.shape[key];
      return literal instanceof z.ZodLiteral ? [...literal.values].map(String) : [];
    });
    const name = names.get(schema);
    return `${name === undefined ? '' : `${name}: `}${key}: ${values.join(' | ')}`;
  }
  if (!(schema instanceof z.ZodObject)) return schemaText(schema, names);
  const fields = Object.entries(schema.shape).map(([key, field]) => {
    if (!(field instanceof z.ZodType)) return key;
    const mark = acceptsUndefined(field) ? '?' : '';
    const inner = unwrapOptional(field);
    const element =
      inner instanceof z.ZodArray && inner.element instanceof z.ZodType ? inner.element : undefined;
    const name = names.get(inner) ?? (element === undefined ? undefined : names.get(element)?.concat('[]'));
    return name === undefined ? `${key}${mark}` : `${key}${mark}: ${name}`;
  });
  return fields.length === 0 ? '(none)' : fields.join(', ');
}
