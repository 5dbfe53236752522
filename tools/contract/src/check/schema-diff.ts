import { isObject, type Json, type JsonObject } from './manifest';
import type { RuleName } from './rules';

/** One difference found inside an element: the rule, where (JSON pointer in the element), a detail. */
export interface Finding {
  readonly rule: RuleName;
  readonly pointer: string;
  readonly detail: string;
}

/** Inputs are what clients send (bodies, parameters, MCP input); outputs what they receive. */
export type Direction = 'input' | 'output';

/** RFC 6901 escaping of one pointer segment. */
export const segment = (value: string | number): string =>
  `/${String(value).replace(/~/g, '~0').replace(/\//g, '~1')}`;

export const jsonEqual = (a: Json | undefined, b: Json | undefined): boolean => canonical(a) === canonical(b);

function canonical(value: Json | undefined): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const DOC_KEYWORDS = new Set(['title', 'description', 'examples', 'example', '$comment']);
/** Upper bounds: lowering (or adding) one narrows. Lower bounds: raising (or adding) one narrows. */
const UPPER_BOUNDS = new Set(['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties']);
const LOWER_BOUNDS = new Set(['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties']);
const VARIANTS = new Set(['anyOf', 'oneOf']);

/**
 * Compares two JSON Schemas (either may be null: no body/schema) at `pointer`. Positions inside sets
 * (enum values, properties) are named by value, not index, so change ids stay stable.
 */
export function diffSchema(a: Json, b: Json, pointer: string, direction: Direction): Finding[] {
  if (jsonEqual(a, b)) return [];
  if (a === null) {
    if (direction === 'output')
      return [{ rule: 'response-field-added', pointer, detail: 'now has a schema' }];
    const required = isObject(b) && Array.isArray(b.required) && b.required.length > 0;
    return [
      {
        rule: required ? 'required-input-added' : 'optional-input-added',
        pointer,
        detail: required ? 'is now expected, with required properties' : 'is now accepted',
      },
    ];
  }
  if (b === null) {
    const rule = direction === 'output' ? 'response-field-removed' : 'input-field-removed';
    return [{ rule, pointer, detail: 'no longer has a schema' }];
  }
  if (!isObject(a) || !isObject(b)) return [{ rule: 'schema-changed', pointer, detail: 'schema changed' }];
  const nullableBefore = unwrapNullable(a);
  const nullableAfter = unwrapNullable(b);
  if (nullableBefore === undefined && nullableAfter !== undefined) {
    const finding: Finding =
      direction === 'input'
        ? { rule: 'input-widened', pointer: pointer + segment('anyOf'), detail: 'now accepts null' }
        : { rule: 'output-type-changed', pointer: pointer + segment('anyOf'), detail: 'may now be null' };
    return [finding, ...diffSchema(a, nullableAfter, pointer, direction)];
  }
  if (nullableBefore !== undefined && nullableAfter === undefined) {
    const finding: Finding =
      direction === 'input'
        ? { rule: 'type-narrowed', pointer: pointer + segment('anyOf'), detail: 'no longer accepts null' }
        : {
            rule: 'output-constraint-changed',
            pointer: pointer + segment('anyOf'),
            detail: 'is no longer null',
          };
    return [finding, ...diffSchema(nullableBefore, b, pointer, direction)];
  }
  const findings: Finding[] = [];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of [...keys].sort()) {
    if (jsonEqual(a[key], b[key])) continue;
    findings.push(...diffKeyword(key, a, b, pointer, direction));
  }
  return findings;
}

function diffKeyword(key: string, a: JsonObject, b: JsonObject, pointer: string, dir: Direction): Finding[] {
  const at = pointer + segment(key);
  const before = a[key];
  const after = b[key];
  if (DOC_KEYWORDS.has(key)) return [{ rule: 'doc-changed', pointer: at, detail: `${key} changed` }];
  if (key === 'default') return [{ rule: 'default-changed', pointer: at, detail: 'default changed' }];
  if (key === 'type') return diffType(before, after, at, dir);
  if (key === 'properties') return diffProperties(a, b, pointer, dir);
  if (key === 'required') return diffRequired(a, b, pointer, dir);
  if (key === 'enum' || key === 'const') return diffEnum(key, before, after, pointer, dir);
  if (UPPER_BOUNDS.has(key) || LOWER_BOUNDS.has(key)) return [diffBound(key, before, after, at, dir)];
  if (key === 'pattern' || key === 'format') {
    if (dir === 'output')
      return [{ rule: 'output-constraint-changed', pointer: at, detail: `${key} changed` }];
    return after === undefined
      ? [{ rule: 'input-widened', pointer: at, detail: `${key} removed` }]
      : [
          {
            rule: 'type-narrowed',
            pointer: at,
            detail: before === undefined ? `${key} added` : `${key} changed`,
          },
        ];
  }
  // Nested schemas with the same direction (`not` inverts it: left to the conservative fallback).
  if ((key === 'items' || key === 'additionalProperties') && isObject(before) && isObject(after)) {
    return diffSchema(before, after, at, dir);
  }
  if (key === 'additionalProperties') {
    if (dir === 'output')
      return [{ rule: 'output-constraint-changed', pointer: at, detail: `${key} changed` }];
    // false (no extra properties) < a schema for them < true/absent (anything).
    const rank = (value: Json | undefined) => (value === false ? 0 : isObject(value) ? 1 : 2);
    const narrowed = rank(after) < rank(before);
    return [{ rule: narrowed ? 'type-narrowed' : 'input-widened', pointer: at, detail: `${key} changed` }];
  }
  if (VARIANTS.has(key) && Array.isArray(before) && Array.isArray(after))
    return diffVariants(before, after, at, dir);
  return [{ rule: 'schema-changed', pointer: at, detail: `${key} changed` }];
}

const NULL_SCHEMA: Json = { type: 'null' };

/**
 * `{anyOf: [X, {type: "null"}]}` (zod's `.nullable()`) → X merged with the outer keywords, so making a
 * value nullable (or not) is one finding plus a comparison of X with the other side at the same pointer.
 */
function unwrapNullable(schema: JsonObject): JsonObject | undefined {
  const variants = schema.anyOf;
  if (!Array.isArray(variants) || variants.length !== 2) return undefined;
  const nullAt = variants.findIndex((variant) => jsonEqual(variant, NULL_SCHEMA));
  const inner = variants[1 - nullAt];
  if (nullAt === -1 || !isObject(inner)) return undefined;
  const outer = { ...schema };
  delete outer.anyOf;
  return { ...outer, ...inner };
}

const typeSet = (value: Json | undefined): Set<string> =>
  new Set(Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)]);

function diffType(before: Json | undefined, after: Json | undefined, at: string, dir: Direction): Finding[] {
  const a = typeSet(before);
  const b = typeSet(after);
  const lost = [...a].filter((type) => !b.has(type));
  const detail = `type ${[...a].join('|') || 'any'} → ${[...b].join('|') || 'any'}`;
  if (dir === 'output') return [{ rule: 'output-type-changed', pointer: at, detail }];
  // No type at all accepts anything: adding one narrows, removing it widens.
  // No type keyword accepts any type: dropping it widens, adding one narrows.
  const narrowed = b.size > 0 && (lost.length > 0 || a.size === 0);
  return [{ rule: narrowed ? 'type-narrowed' : 'input-widened', pointer: at, detail }];
}

function diffBound(
  key: string,
  before: Json | undefined,
  after: Json | undefined,
  at: string,
  dir: Direction,
): Finding {
  const detail = `${key} ${before === undefined ? 'none' : String(before)} → ${after === undefined ? 'none' : String(after)}`;
  if (dir === 'output') return { rule: 'output-constraint-changed', pointer: at, detail };
  const upper = UPPER_BOUNDS.has(key);
  let narrowed: boolean;
  if (before === undefined) narrowed = true;
  else if (after === undefined) narrowed = false;
  else if (typeof before === 'number' && typeof after === 'number')
    narrowed = upper ? after < before : after > before;
  else narrowed = true;
  return { rule: narrowed ? 'type-narrowed' : 'input-widened', pointer: at, detail };
}

const requiredSet = (schema: JsonObject): Set<string> =>
  new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
const propertiesOf = (schema: JsonObject): JsonObject =>
  isObject(schema.properties) ? schema.properties : {};

function diffProperties(a: JsonObject, b: JsonObject, pointer: string, dir: Direction): Finding[] {
  const before = propertiesOf(a);
  const after = propertiesOf(b);
  const requiredAfter = requiredSet(b);
  const findings: Finding[] = [];
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const name of names) {
    const at = `${pointer}/properties${segment(name)}`;
    const old = before[name];
    const now = after[name];
    if (old !== undefined && now !== undefined) findings.push(...diffSchema(old, now, at, dir));
    else if (now === undefined) {
      const rule = dir === 'output' ? 'response-field-removed' : 'input-field-removed';
      findings.push({ rule, pointer: at, detail: `property "${name}" removed` });
    } else if (dir === 'output')
      findings.push({ rule: 'response-field-added', pointer: at, detail: `property "${name}" added` });
    else {
      const required = requiredAfter.has(name);
      const rule = required ? 'required-input-added' : 'optional-input-added';
      findings.push({
        rule,
        pointer: at,
        detail: `${required ? 'required' : 'optional'} property "${name}" added`,
      });
    }
  }
  return findings;
}

/** Only properties present before and after: added/removed properties were reported by diffProperties. */
function diffRequired(a: JsonObject, b: JsonObject, pointer: string, dir: Direction): Finding[] {
  const before = requiredSet(a);
  const after = requiredSet(b);
  const kept = (name: string) => Object.hasOwn(propertiesOf(a), name) && Object.hasOwn(propertiesOf(b), name);
  const findings: Finding[] = [];
  for (const name of [...after].filter((n) => !before.has(n)).sort()) {
    if (!kept(name)) continue;
    const rule = dir === 'input' ? 'required-input-added' : 'output-field-made-required';
    findings.push({
      rule,
      pointer: `${pointer}/properties${segment(name)}`,
      detail: `property "${name}" became required`,
    });
  }
  for (const name of [...before].filter((n) => !after.has(n)).sort()) {
    if (!kept(name)) continue;
    const rule = dir === 'input' ? 'input-made-optional' : 'output-field-made-optional';
    findings.push({
      rule,
      pointer: `${pointer}/properties${segment(name)}`,
      detail: `property "${name}" became optional`,
    });
  }
  return findings;
}

const enumValues = (key: string, value: Json | undefined): Json[] =>
  value === undefined ? [] : key === 'const' ? [value] : Array.isArray(value) ? value : [value];

function diffEnum(
  key: string,
  before: Json | undefined,
  after: Json | undefined,
  pointer: string,
  dir: Direction,
): Finding[] {
  const a = enumValues(key, before);
  const b = enumValues(key, after);
  const findings: Finding[] = [];
  // Dropping the enum/const keyword altogether widens the accepted values: nothing removed.
  if (after !== undefined) {
    for (const value of a) {
      if (b.some((other) => jsonEqual(other, value))) continue;
      findings.push({
        rule: 'enum-value-removed',
        pointer: `${pointer}${segment(key)}${segment(valueKey(value))}`,
        detail: `value ${JSON.stringify(value)} removed`,
      });
    }
  }
  const added = before === undefined ? [] : b.filter((value) => !a.some((other) => jsonEqual(other, value)));
  for (const value of added) {
    findings.push({
      rule: dir === 'input' ? 'input-enum-value-added' : 'output-enum-value-added',
      pointer: `${pointer}${segment(key)}${segment(valueKey(value))}`,
      detail: `value ${JSON.stringify(value)} added`,
    });
  }
  if (before === undefined) {
    findings.push({
      rule: dir === 'input' ? 'type-narrowed' : 'output-constraint-changed',
      pointer: pointer + segment(key),
      detail: `${key} added`,
    });
  } else if (after === undefined) {
    findings.push({
      rule: dir === 'input' ? 'input-widened' : 'output-constraint-changed',
      pointer: pointer + segment(key),
      detail: `${key} removed`,
    });
  }
  return findings;
}

const valueKey = (value: Json): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The property whose `const` tells the variants apart (a discriminated union), if every variant is an
 * object schema with a distinct string `const` for it.
 */
function discriminator(variants: Json[]): string | undefined {
  const objects = variants.filter(isObject);
  const first = objects[0];
  if (first === undefined || objects.length !== variants.length || objects.length < 2) return undefined;
  return Object.keys(propertiesOf(first))
    .sort()
    .find((name) => {
      const values = objects.map((variant) => {
        const property = propertiesOf(variant)[name];
        return isObject(property) && typeof property.const === 'string' ? property.const : undefined;
      });
      return values.every((value) => value !== undefined) && new Set(values).size === values.length;
    });
}

const constOf = (variant: Json, name: string): string => {
  const property = isObject(variant) ? propertiesOf(variant)[name] : undefined;
  return isObject(property) ? String(property.const) : '';
};

/** Variants of a discriminated union are matched by their discriminator value (named by it in pointers). */
function diffDiscriminated(
  before: Json[],
  after: Json[],
  name: string,
  at: string,
  dir: Direction,
): Finding[] {
  const a = new Map(before.map((variant) => [constOf(variant, name), variant]));
  const b = new Map(after.map((variant) => [constOf(variant, name), variant]));
  const values = [...new Set([...a.keys(), ...b.keys()])].sort();
  return values.flatMap((value): Finding[] => {
    const pointer = at + segment(value);
    const old = a.get(value);
    const now = b.get(value);
    if (old !== undefined && now !== undefined) return diffSchema(old, now, pointer, dir);
    const detail = `variant ${name}=${JSON.stringify(value)} ${old === undefined ? 'added' : 'removed'}`;
    if (dir === 'output') return [{ rule: 'output-constraint-changed', pointer, detail }];
    return [{ rule: old === undefined ? 'input-widened' : 'type-narrowed', pointer, detail }];
  });
}

function diffVariants(before: Json[], after: Json[], at: string, dir: Direction): Finding[] {
  const name = discriminator(before);
  if (name !== undefined && name === discriminator(after))
    return diffDiscriminated(before, after, name, at, dir);
  const findings: Finding[] = [];
  const shared = Math.min(before.length, after.length);
  for (let index = 0; index < shared; index += 1) {
    findings.push(...diffSchema(before[index] ?? null, after[index] ?? null, at + segment(index), dir));
  }
  if (before.length === after.length) return findings;
  const removed = before.length > after.length;
  const detail = `${removed ? 'variant removed' : 'variant added'} (${before.length} → ${after.length})`;
  const rule: RuleName =
    dir === 'output' ? 'output-constraint-changed' : removed ? 'type-narrowed' : 'input-widened';
  findings.push({ rule, pointer: at, detail });
  return findings;
}
