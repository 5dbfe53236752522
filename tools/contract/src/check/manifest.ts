import { MANIFEST_FORMAT, type ManifestElement } from '../manifest-types';

/**
 * The manifest as the checker reads it, validated strictly (§9.4 conservative): a checker that does
 * not understand a manifest must not call it compatible, so an unknown `format`, element `kind` or
 * field fails with its own error (exit 3) naming the element and field.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export { MANIFEST_FORMAT };

export interface CheckedElement {
  readonly id: string;
  readonly kind: ElementKind;
  readonly fields: JsonObject;
}

export interface CheckedManifest {
  readonly version: string;
  readonly elements: ReadonlyMap<string, CheckedElement>;
}

/** A manifest (or approvals file) this checker does not understand: exit 3. */
export class UnknownInputError extends Error {
  constructor(
    message: string,
    readonly element?: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'UnknownInputError';
  }
}

/** Per kind: id prefix, required fields, optional fields (besides id, kind, deprecated). */
export const ELEMENT_KINDS = {
  rest_endpoint: {
    prefix: 'rest:',
    required: [
      'method',
      'path',
      'operation_id',
      'scopes',
      'parameters',
      'request_body',
      'responses',
      'rate_limit',
    ],
    optional: [],
  },
  mcp_tool: {
    prefix: 'mcp:',
    required: ['name', 'title', 'description', 'scope', 'input_schema', 'output_schema', 'annotations'],
    optional: [],
  },
  execution_mode: { prefix: 'mode:', required: ['value', 'runnable', 'description'], optional: [] },
  run_state: { prefix: 'state:', required: ['value', 'terminal', 'transitions'], optional: [] },
  lifecycle: { prefix: 'lifecycle:', required: ['name', 'steps', 'description'], optional: [] },
  error_status: { prefix: 'error:', required: ['status', 'meaning'], optional: [] },
  scope: { prefix: 'scope:', required: ['name', 'description'], optional: [] },
  limit: { prefix: 'limit:', required: ['name', 'value', 'unit', 'description'], optional: [] },
} as const satisfies Record<string, { prefix: string; required: string[]; optional: string[] }>;

export type ElementKind = keyof typeof ELEMENT_KINDS;

const DEPRECATION_FIELDS = new Set(['since', 'sunset', 'replacement', 'link']);
const DEPRECATION_REQUIRED = ['since', 'sunset', 'link'];
const TOP_FIELDS = new Set(['format', 'version', 'elements']);

export const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isKind = (kind: string): kind is ElementKind => Object.hasOwn(ELEMENT_KINDS, kind);

/** Parses and validates a manifest's text; `source` names it in errors. */
export function parseManifest(text: string, source: string): CheckedManifest {
  let raw: Json;
  try {
    raw = JSON.parse(text) as Json;
  } catch (error) {
    throw new UnknownInputError(`${source}: not JSON (${(error as Error).message})`);
  }
  if (!isObject(raw)) throw new UnknownInputError(`${source}: not a JSON object`);
  if (raw.format !== MANIFEST_FORMAT) {
    throw new UnknownInputError(
      `${source}: unknown format ${JSON.stringify(raw.format ?? null)} (this checker reads ${MANIFEST_FORMAT})`,
      undefined,
      'format',
    );
  }
  for (const key of Object.keys(raw)) {
    if (!TOP_FIELDS.has(key))
      throw new UnknownInputError(`${source}: unknown top-level field "${key}"`, undefined, key);
  }
  if (typeof raw.version !== 'string') throw new UnknownInputError(`${source}: "version" must be a string`);
  if (!Array.isArray(raw.elements)) throw new UnknownInputError(`${source}: "elements" must be an array`);
  const elements = new Map<string, CheckedElement>();
  raw.elements.forEach((entry, index) => {
    const element = checkElement(entry, `${source}: elements[${index}]`);
    if (elements.has(element.id)) {
      throw new UnknownInputError(`${source}: duplicate element id "${element.id}"`, element.id, 'id');
    }
    elements.set(element.id, element);
  });
  return { version: raw.version, elements };
}

function checkElement(entry: Json, where: string): CheckedElement {
  if (!isObject(entry)) throw new UnknownInputError(`${where}: not an object`);
  const { id, kind } = entry;
  if (typeof id !== 'string') throw new UnknownInputError(`${where}: "id" must be a string`, undefined, 'id');
  if (typeof kind !== 'string' || !isKind(kind)) {
    throw new UnknownInputError(
      `${where} (${id}): unknown element kind ${JSON.stringify(kind ?? null)}`,
      id,
      'kind',
    );
  }
  const spec = ELEMENT_KINDS[kind];
  if (!id.startsWith(spec.prefix)) {
    throw new UnknownInputError(`${id}: a ${kind} id must start with "${spec.prefix}"`, id, 'id');
  }
  const allowed = new Set<string>(['id', 'kind', 'deprecated', ...spec.required, ...spec.optional]);
  for (const key of Object.keys(entry)) {
    if (!allowed.has(key)) throw new UnknownInputError(`${id}: unknown field "${key}" on a ${kind}`, id, key);
  }
  for (const key of spec.required) {
    if (!Object.hasOwn(entry, key)) throw new UnknownInputError(`${id}: missing field "${key}"`, id, key);
  }
  const deprecated = entry.deprecated;
  if (deprecated !== undefined) checkDeprecation(deprecated, id);
  const fields: JsonObject = { ...entry };
  delete fields.id;
  delete fields.kind;
  return { id, kind, fields };
}

function checkDeprecation(value: Json, id: string): void {
  if (!isObject(value))
    throw new UnknownInputError(`${id}: "deprecated" must be an object`, id, 'deprecated');
  for (const key of Object.keys(value)) {
    if (!DEPRECATION_FIELDS.has(key)) {
      throw new UnknownInputError(`${id}: unknown field "deprecated.${key}"`, id, `deprecated.${key}`);
    }
  }
  for (const key of DEPRECATION_REQUIRED) {
    if (typeof value[key] !== 'string') {
      throw new UnknownInputError(`${id}: "deprecated.${key}" must be a string`, id, `deprecated.${key}`);
    }
  }
}

// The checker's field table and the generator's element types (manifest-types.ts) describe one format:
// this fails to compile when a field is added to one and not the other.
type GeneratedFields<K extends ElementKind> = Exclude<
  keyof Extract<ManifestElement, { kind: K }>,
  'id' | 'kind' | 'deprecated'
>;
type CheckedFields<K extends ElementKind> =
  | (typeof ELEMENT_KINDS)[K]['required'][number]
  | (typeof ELEMENT_KINDS)[K]['optional'][number];
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const FIELD_TABLE_MATCHES_FORMAT: {
  [K in ElementKind | ManifestElement['kind']]: K extends ElementKind
    ? SameKeys<GeneratedFields<K>, CheckedFields<K>>
    : false;
} = {
  rest_endpoint: true,
  mcp_tool: true,
  execution_mode: true,
  run_state: true,
  lifecycle: true,
  error_status: true,
  scope: true,
  limit: true,
};
void FIELD_TABLE_MATCHES_FORMAT;
