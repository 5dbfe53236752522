import {
  type CapabilityExecution,
  type CapabilityManifest,
  CapabilityManifest as CapabilityManifestSchema,
  type CapabilityRecord,
  type CapabilitySummary,
  ExecutionMode,
  effectiveRunStatus,
  FileRequirements,
  type JsonSchemaObject,
  manifestInputJsonSchema,
  Pricing,
} from '@svc/contracts';
import type { Prisma } from '@svc/db';
import { z } from 'zod';
import { sha256Hex } from './manifest-hash';

/**
 * The one place where capability rows (registry.capabilities) and wire shapes meet: manifest → row
 * on seed, row → CapabilityRecord / CapabilitySummary / input_schema on read. JSON columns are
 * parsed on the way out, so a row that no longer matches the contract fails loudly here (naming
 * the slug) instead of reaching a client half-valid.
 */

/** What seeding writes: every column but the timestamps and the generated search vector. */
export type CapabilityRowData = Omit<Prisma.CapabilityCreateManyInput, 'createdAt' | 'updatedAt'> & {
  manifestHash: string;
};

/** The columns the read side needs (camelCase, as Prisma returns them; raw queries alias to these). */
export interface CapabilityRowFields {
  slug: string;
  name: string;
  description: string;
  category: string;
  tags: string[];
  version: string;
  pricing: unknown;
  fileRequirements: unknown;
  execution: unknown;
  machineRunStatus: string;
  runtime: string;
  updatedAt: Date;
}

/** JSON as stored in jsonb; zod's JSON type is assignable to Prisma's JSON input type. */
const JsonObject = z.record(z.string(), z.json());

/** `execution` jsonb: the authored block; only `mode` is read back (status and runtime have columns). */
const StoredExecution = z.object({ mode: ExecutionMode });

/**
 * Validates a manifest (strict: a misspelt key fails at seed time), renders its input schema and
 * computes the hash over everything a client can see, so any visible change is detected.
 */
export function manifestToRow(candidate: CapabilityManifest): CapabilityRowData {
  const manifest = CapabilityManifestSchema.parse(candidate);
  const inputSchema = JsonObject.parse(manifestInputJsonSchema(manifest));
  const row = {
    slug: manifest.slug,
    name: manifest.name,
    description: manifest.description,
    category: manifest.category,
    tags: manifest.tags,
    version: manifest.version,
    pricing: JsonObject.parse(manifest.pricing),
    fileRequirements: JsonObject.parse(manifest.file_requirements),
    execution: JsonObject.parse(manifest.execution),
    machineRunStatus: manifest.execution.machine_run_status,
    runtime: manifest.execution.runtime,
    inputSchema,
  };
  return { ...row, manifestHash: sha256Hex(row) };
}

function parseColumn<T extends z.ZodType>(
  schema: T,
  value: unknown,
  slug: string,
  column: string,
): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`capability "${slug}": stored ${column} does not match the contract`);
  return parsed.data;
}

/**
 * Spec §2.1: `machine_run_status` is published raw (it may be legacy or unknown in stored rows);
 * `effective_status` is the rule applied once, here, for every read path.
 */
function toExecution(row: CapabilityRowFields): CapabilityExecution {
  const stored = parseColumn(StoredExecution, row.execution, row.slug, 'execution');
  return {
    machine_run_status: row.machineRunStatus,
    effective_status: effectiveRunStatus(row.machineRunStatus),
    runtime: row.runtime,
    mode: stored.mode,
  };
}

/** The fields a record and a summary share (contracts' CapabilityIdentity). */
function identityOf(row: CapabilityRowFields) {
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    category: row.category,
    tags: row.tags,
  };
}

export function toCapabilityRecord(row: CapabilityRowFields): CapabilityRecord {
  return {
    ...identityOf(row),
    version: row.version,
    pricing: parseColumn(Pricing, row.pricing, row.slug, 'pricing'),
    file_requirements: parseColumn(FileRequirements, row.fileRequirements, row.slug, 'file_requirements'),
    execution: toExecution(row),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** `relevance` only when the list was a search (spec §4.1 `q`); omitted for a plain listing. */
export function toCapabilitySummary(row: CapabilityRowFields, relevance?: number): CapabilitySummary {
  return {
    ...identityOf(row),
    pricing: parseColumn(Pricing, row.pricing, row.slug, 'pricing'),
    execution: toExecution(row),
    ...(relevance === undefined ? {} : { relevance }),
  };
}

export function toInputSchema(slug: string, inputSchema: unknown): JsonSchemaObject {
  return parseColumn(JsonObject, inputSchema, slug, 'input_schema');
}
