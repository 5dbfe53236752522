import fs from 'node:fs';
import path from 'node:path';

// The small JSON files `pnpm start` and `pnpm worker` leave in DATA_DIR (runtime.json, instances/*).

/**
 * Writes `value` as JSON to `file` atomically (temp file + rename): a reader never sees half a file.
 * Mode 0600: these files may carry a database URL with its password.
 */
export function writeJsonFileAtomic(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** The type each field of a JSON object must have; `string|null` also takes null. */
export type JsonFieldTypes = Readonly<Record<string, 'string' | 'number' | 'string|null'>>;

/** Whether `value` (parsed JSON) is an object whose fields have these types; other fields are not looked at. */
export function hasFieldTypes(value: unknown, fields: JsonFieldTypes): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const v: Record<string, unknown> = { ...value };
  return Object.entries(fields).every(([key, type]) =>
    type === 'string|null' ? typeof v[key] === 'string' || v[key] === null : typeof v[key] === type,
  );
}
