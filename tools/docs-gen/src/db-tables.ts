import { code, table } from './markdown';
import type { PrismaDatabase, PrismaField, PrismaModel } from './prisma-schema';

/**
 * The database tables of docs/architecture.md ("Tables") and docs/db.md ("Schemas"), from
 * schema.prisma (prisma-schema.ts) and the one service list (which service owns which schema).
 */

/** Which service owns a schema (@svc/devstack schemaOwner), or undefined. */
export type SchemaOwner = (schema: string) => string | undefined;

/** PostgreSQL's spelling of a field's type, as people read a column. */
function columnType(field: PrismaField): string {
  const native = field.nativeType?.[0];
  const scalar: Readonly<Record<string, string>> = {
    String: 'text',
    Int: 'int',
    BigInt: 'bigint',
    Float: 'float',
    Boolean: 'boolean',
    DateTime: 'timestamp',
    Json: 'json',
    Bytes: 'bytes',
  };
  const base =
    native === 'Uuid'
      ? 'uuid'
      : native === 'Timestamptz'
        ? 'timestamptz'
        : field.kind === 'enum'
          ? field.type
          : (scalar[field.type] ?? field.type);
  return field.isList ? `${base}[]` : base;
}

/** The schemas in the order of the services that own them (the service list's), unowned ones last. */
export function schemasInOrder(
  database: PrismaDatabase,
  owners: readonly string[],
  ownerOf: SchemaOwner,
): string[] {
  const owned = owners.flatMap((service) => database.schemas.filter((schema) => ownerOf(schema) === service));
  return [...owned, ...database.schemas.filter((schema) => !owned.includes(schema))];
}

function modelsOf(database: PrismaDatabase, schema: string): PrismaModel[] {
  return database.models.filter((model) => model.schema === schema);
}

/** `clientId` uuid → Client, `label?` text, `id` uuid pk, `keyId` text unique. */
function columnsText(model: PrismaModel): string {
  const references = new Map<string, string>();
  for (const field of model.fields) {
    if (field.kind !== 'object') continue;
    for (const from of field.relationFromFields ?? []) references.set(from, field.type);
  }
  return model.fields
    .filter((field) => field.kind === 'scalar' || field.kind === 'enum')
    .map((field) => {
      const marks = [
        field.isId ? 'pk' : undefined,
        field.isUnique ? 'unique' : undefined,
        references.has(field.name) ? `→ ${references.get(field.name)}` : undefined,
      ].filter((mark) => mark !== undefined);
      return [`${code(`${field.name}${field.isRequired ? '' : '?'}`)} ${columnType(field)}`, ...marks].join(
        ' ',
      );
    })
    .join(', ');
}

/** Primary key over several fields, unique constraints and indexes declared on the model. */
function keysText(model: PrismaModel): string {
  const fields = (names: readonly string[]) => `(${names.map((name) => code(name)).join(', ')})`;
  const kinds: Readonly<Record<string, string>> = {
    id: 'pk',
    unique: 'unique',
    normal: 'index',
    fulltext: 'full-text',
  };
  const parts = model.indexes
    .filter((index) => !index.isDefinedOnField)
    .map((index) => `${kinds[index.type] ?? index.type} ${fields(index.fields.map((field) => field.name))}`);
  return parts.length === 0 ? '—' : parts.join('; ');
}

/** The `tables` region: one table per schema, one row per model. */
export function tablesRegion(
  database: PrismaDatabase,
  owners: readonly string[],
  ownerOf: SchemaOwner,
): string {
  return schemasInOrder(database, owners, ownerOf)
    .map((schema) => {
      const owner = ownerOf(schema);
      const heading = `Schema ${code(schema)}, owned by: ${owner ?? 'no service of the list'}.`;
      const rows = modelsOf(database, schema).map((model) => [
        code(model.name),
        code(`${schema}.${model.table}`),
        columnsText(model),
        keysText(model),
        model.documentation ?? '—',
      ]);
      return `${heading}\n\n${table(['model', 'table', 'columns', 'keys and indexes', 'what'], rows)}`;
    })
    .join('\n\n');
}

/** The `schemas` region of docs/db.md: each schema, the service that owns it and its tables. */
export function schemasRegion(
  database: PrismaDatabase,
  owners: readonly string[],
  ownerOf: SchemaOwner,
): string {
  const rows = schemasInOrder(database, owners, ownerOf).map((schema) => [
    code(schema),
    ownerOf(schema) ?? '—',
    modelsOf(database, schema)
      .map((model) => `${code(model.table)} (${model.name})`)
      .join(', ') || '—',
  ]);
  return table(['schema', 'owned by', 'tables (model)'], rows);
}
