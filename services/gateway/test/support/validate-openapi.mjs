// Reads an OpenAPI document on stdin, validates it with @seriousme/openapi-schema-validator and
// prints {"valid", "version", "errors"} as JSON. Its own Node process: the validator is ESM-only,
// and jest runs our tests as CommonJS.
import { Validator } from '@seriousme/openapi-schema-validator';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const validator = new Validator();
const result = await validator.validate(JSON.parse(Buffer.concat(chunks).toString('utf8')));
process.stdout.write(
  JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? [] }),
);
