// Validates an OpenAPI document read from stdin with @seriousme/openapi-schema-validator and
// prints {"valid": boolean, "version": string, "errors": [...]} on stdout. A separate Node process
// because the validator is ESM-only and jest (CommonJS here, Node 20) cannot load it.
import { Validator } from '@seriousme/openapi-schema-validator';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const document = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const validator = new Validator();
const result = await validator.validate(document);
process.stdout.write(
  JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? [] }),
);
