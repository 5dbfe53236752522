import { regionNames } from './regions';

/**
 * The names the prose of a doc mentions (a schema, a table and its columns, an RPC queue or method,
 * a job queue, an event), checked against the code: a name that no longer exists is a sentence that
 * drifted. Only dotted names whose first part is one of the platform's namespaces are read (a schema,
 * an RPC service, `jobs`, `rpc`, or the first part of a job or event name), so file names and the
 * like pass; `<placeholder>` and `*` parts match any name with the same known beginning.
 */

export interface KnownNames {
  /** schema → its tables. */
  tables: ReadonlyMap<string, ReadonlySet<string>>;
  /** RPC service → its methods. */
  rpc: ReadonlyMap<string, ReadonlySet<string>>;
  /** Job names as the catalog keys them (`capability.crt`, `uploads.cleanup`). */
  jobs: ReadonlySet<string>;
  /** Event names (`run.finished`). */
  events: ReadonlySet<string>;
}

/** A name the prose mentions that the code does not have. */
export interface UnknownName {
  line: number;
  name: string;
}

const FILE_ENDINGS = new Set([
  'ts',
  'tsx',
  'js',
  'mjs',
  'cjs',
  'json',
  'md',
  'sql',
  'prisma',
  'yml',
  'yaml',
  'toml',
  'css',
  'png',
  'html',
  'pdf',
  'csv',
  'txt',
  'sh',
]);

/** `document` without the content of its generated regions (their text is the generator's). */
export function proseOf(document: string): string {
  let out = document;
  for (const name of regionNames(document)) {
    const start = `<!-- generated:${name} -->`;
    const end = `<!-- /generated:${name} -->`;
    const from = out.indexOf(start);
    const to = out.indexOf(end, from);
    if (from < 0 || to < 0) continue;
    // Keep the line breaks so line numbers still point into the file.
    const inner = out.slice(from + start.length, to).replace(/[^\n]/g, '');
    out = out.slice(0, from + start.length) + inner + out.slice(to);
  }
  return out;
}

function isPlaceholder(part: string): boolean {
  return part.startsWith('<') || part === '*';
}

/** Whether `parts` names one of `names` (dot-joined), placeholders matching any remainder. */
function matchesAny(parts: readonly string[], names: Iterable<string>): boolean {
  const wild = parts.findIndex(isPlaceholder);
  const exact = wild < 0 ? parts.join('.') : undefined;
  for (const name of names) {
    if (exact !== undefined) {
      if (name === exact) return true;
      continue;
    }
    const known = name.split('.');
    if (known.length >= parts.length && parts.slice(0, wild).every((part, i) => known[i] === part))
      return true;
  }
  return false;
}

function tableNames(known: KnownNames): string[] {
  return [...known.tables].flatMap(([schema, tables]) =>
    [...tables.keys()].map((table) => `${schema}.${table}`),
  );
}

function methodNames(known: KnownNames): string[] {
  return [...known.rpc].flatMap(([service, methods]) => [...methods].map((method) => `${service}.${method}`));
}

/** Whether a dotted name (split in parts) is something the code has. */
function exists(parts: readonly string[], known: KnownNames): boolean {
  const [first, ...rest] = parts;
  if (first === 'jobs') return matchesAny(rest, known.jobs);
  if (first === 'rpc')
    return rest.length === 1 && (isPlaceholder(rest[0] ?? '') || known.rpc.has(rest[0] ?? ''));
  // `schema.table.column`: the table must exist (a column Prisma cannot express, such as a generated
  // tsvector, is not in the schema's model, so columns are not checked).
  const tableOfColumn = parts.length === 3 ? [parts[0] ?? '', parts[1] ?? ''] : undefined;
  if (tableOfColumn !== undefined && matchesAny(tableOfColumn, tableNames(known))) return true;
  return [methodNames(known), [...known.jobs], [...known.events], tableNames(known)].some((names) =>
    matchesAny(parts, names),
  );
}

/** The first parts that make a dotted name one of the platform's (and so checked). */
function namespaces(known: KnownNames): Set<string> {
  return new Set([
    'jobs',
    'rpc',
    ...known.tables.keys(),
    ...known.rpc.keys(),
    ...[...known.jobs, ...known.events].map((name) => name.split('.')[0] ?? ''),
  ]);
}

// A dotted name: parts of letters, digits, `_`, `-`, `*` or one `<placeholder>`, not inside a path,
// a URL, a Redis key (`<prefix>:rpc.x` is the generated tables' business) or a longer word.
const DOTTED = /(?<![\w.:/<>@-])[a-z][\w-]*(?:\.(?:[\w*-]+|<[^<>\s]+>))+/g;

/** Every dotted platform name in `text` the code does not have, with its line. */
export function unknownNames(text: string, known: KnownNames): UnknownName[] {
  const checked = namespaces(known);
  const found: UnknownName[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(DOTTED)) {
      const name = match[0].replace(/[.-]+$/, '');
      const parts = name.split('.');
      const after = line[(match.index ?? 0) + match[0].length];
      // A function call (`registry.immutable_array_to_string(…)`) or a file name is not a platform name.
      if (after === '(' || FILE_ENDINGS.has(parts.at(-1) ?? '') || !checked.has(parts[0] ?? '')) continue;
      if (parts.length < 2 || !exists(parts, known)) found.push({ line: index + 1, name });
    }
  });
  return found;
}

/** `schema \`x\``: every PostgreSQL schema the prose names by that word. */
export function namedSchemas(text: string): { line: number; name: string }[] {
  const found: { line: number; name: string }[] = [];
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/\bschemas? `([a-z_]+)`/g))
      found.push({ line: index + 1, name: match[1] ?? '' });
  });
  return found;
}
