import { execFile } from 'node:child_process';
import path from 'node:path';

/** What @seriousme/openapi-schema-validator says about a document. */
export interface OpenApiValidation {
  valid: boolean;
  /** The OpenAPI version it validated against, e.g. `3.1`. */
  version: string;
  /** The validator's complaints; `[]` when valid. */
  errors: unknown[];
}

const SCRIPT = path.join(__dirname, 'validate-openapi.mjs');

function isValidation(value: unknown): value is OpenApiValidation {
  return (
    typeof value === 'object' &&
    value !== null &&
    'valid' in value &&
    typeof value.valid === 'boolean' &&
    'version' in value &&
    typeof value.version === 'string' &&
    'errors' in value &&
    Array.isArray(value.errors)
  );
}

/**
 * Validates an OpenAPI document (as JSON: what /openapi.json serves) against the OpenAPI schema.
 * The validator is ESM-only, which jest's CommonJS loader cannot load, so it runs in a child
 * Node process (validate-openapi.mjs).
 */
export function validateOpenApiDocument(document: unknown): Promise<OpenApiValidation> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [SCRIPT],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) {
          reject(new Error(`OpenAPI validator failed: ${err.message}\n${stderr}`));
          return;
        }
        let result: unknown;
        try {
          result = JSON.parse(stdout);
        } catch {
          result = undefined;
        }
        if (isValidation(result)) resolve(result);
        else reject(new Error(`unexpected OpenAPI validator output: ${stdout}`));
      },
    );
    child.stdin?.end(JSON.stringify(document));
  });
}
