import { readFileSync } from 'node:fs';
import path from 'node:path';
import { get_config, get_dmmf } from '@prisma/prisma-schema-wasm';
import { z } from 'zod';

/**
 * The database as packages/db/prisma/schema.prisma declares it, read by Prisma's own schema parser
 * (the DMMF of @prisma/prisma-schema-wasm, the build of the engines @svc/db migrates with), so the
 * docs' tables and schemas follow the schema file instead of being typed again.
 */

/** schema.prisma, relative to the workspace root. */
export const PRISMA_SCHEMA_FILE = 'packages/db/prisma/schema.prisma';

// The parts of the DMMF the docs read (the DMMF has many more; zod keeps only these).
const DmmfField = z.object({
  name: z.string(),
  dbName: z.string().nullish(),
  kind: z.enum(['scalar', 'object', 'enum', 'unsupported']),
  isList: z.boolean(),
  isRequired: z.boolean(),
  isUnique: z.boolean(),
  isId: z.boolean(),
  type: z.string(),
  nativeType: z.tuple([z.string(), z.array(z.string())]).nullish(),
  /** On a relation field: the scalar fields that hold the other model's key. */
  relationFromFields: z.array(z.string()).optional(),
  documentation: z.string().optional(),
});
const DmmfModel = z.object({
  name: z.string(),
  dbName: z.string().nullish(),
  schema: z.string().nullish(),
  fields: z.array(DmmfField),
  primaryKey: z.object({ fields: z.array(z.string()) }).nullish(),
  documentation: z.string().optional(),
});
const DmmfIndex = z.object({
  model: z.string(),
  type: z.enum(['id', 'normal', 'unique', 'fulltext']),
  isDefinedOnField: z.boolean(),
  fields: z.array(z.object({ name: z.string() })),
});
const Dmmf = z.object({
  datamodel: z.object({ models: z.array(DmmfModel), indexes: z.array(DmmfIndex) }),
});
const Config = z.object({
  config: z.object({ datasources: z.array(z.object({ schemas: z.array(z.string()) })) }),
});

export type PrismaField = z.infer<typeof DmmfField>;
export type PrismaIndex = z.infer<typeof DmmfIndex>;

/** One model: its PostgreSQL schema and table, its fields, its indexes (the primary key included). */
export interface PrismaModel {
  name: string;
  schema: string;
  table: string;
  documentation: string | undefined;
  fields: PrismaField[];
  primaryKey: string[] | undefined;
  indexes: PrismaIndex[];
}

export interface PrismaDatabase {
  /** The datasource's `schemas`, as declared. */
  schemas: string[];
  /** Every model, in the order schema.prisma declares them. */
  models: PrismaModel[];
}

/** The database `text` (a schema.prisma) declares. Throws on a schema Prisma itself rejects. */
export function parsePrismaSchema(text: string): PrismaDatabase {
  const files = [['schema.prisma', text]];
  const dmmf = Dmmf.parse(JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: files }))));
  const config = Config.parse(
    JSON.parse(
      get_config(
        JSON.stringify({ prismaSchema: files, datasourceOverrides: {}, ignoreEnvVarErrors: true, env: {} }),
      ),
    ),
  );
  const models = dmmf.datamodel.models.map((model): PrismaModel => {
    if (model.schema == null) throw new Error(`schema.prisma: model ${model.name} names no @@schema`);
    return {
      name: model.name,
      schema: model.schema,
      table: model.dbName ?? model.name,
      documentation: model.documentation,
      fields: model.fields,
      primaryKey: model.primaryKey?.fields,
      indexes: dmmf.datamodel.indexes.filter((index) => index.model === model.name),
    };
  });
  return { schemas: config.config.datasources.flatMap((source) => source.schemas), models };
}

/** The database of the workspace's schema.prisma (`root`: the workspace root). */
export function readPrismaDatabase(root: string): PrismaDatabase {
  return parsePrismaSchema(readFileSync(path.join(root, PRISMA_SCHEMA_FILE), 'utf8'));
}

/** A field's column name (`@map`), else its name. */
export function columnOf(field: PrismaField): string {
  return field.dbName ?? field.name;
}
