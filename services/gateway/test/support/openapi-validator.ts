import { execFileSync } from 'node:child_process';
import path from 'node:path';

export interface OpenApiValidation {
  valid: boolean;
  version: string;
  errors: unknown[];
}

function isValidation(value: unknown): value is OpenApiValidation {
  return (
    typeof value === 'object' &&
    value !== null &&
    'valid' in value &&
    typeof value.valid === 'boolean' &&
    'errors' in value &&
    Array.isArray(value.errors)
  );
}

/** Validates an OpenAPI document with @seriousme/openapi-schema-validator (in a child process: ESM-only). */
export function validateOpenApi(document: unknown): OpenApiValidation {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'validate-openapi.mjs')], {
    input: JSON.stringify(document),
    encoding: 'utf8',
  });
  const result: unknown = JSON.parse(out);
  if (!isValidation(result)) throw new Error(`unexpected validator output: ${out}`);
  return result;
}
