import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import { API_VERSION } from '../common';
import { CONTRACT_HEADERS_MARKDOWN } from '../deprecations';
import { JSON_INPUT_RULES_MARKDOWN } from '../json-limits';
import { keepOpenObjectsOpen } from '../json-schema';
import { accountOperations } from './account-operations';
import { artifactOperations } from './artifact-operations';
import { capabilityOperations } from './capability-operations';
import { componentSchemas } from './components';
import { mcpOperations } from './mcp-operations';
import { type ApiOperation, toOpenApiOperation } from './operation';
import { quoteRunOperations } from './quote-run-operations';
import { runOperations } from './run-operations';
import { operationsByScope, scopeTableMarkdown } from './scope-table';
import { systemOperations } from './system-operations';
import { uploadOperations } from './upload-operations';
import { vaultComponentSchemas, vaultOperations } from './vault-operations';

/** Every REST operation. A new resource adds its `*-operations.ts` list here, nothing else. */
export const apiOperations: readonly ApiOperation[] = [
  ...capabilityOperations,
  ...quoteRunOperations,
  ...runOperations,
  ...uploadOperations,
  ...artifactOperations,
  ...accountOperations,
  ...vaultOperations,
  ...mcpOperations,
  ...systemOperations,
];

export type OpenApiDocument = ReturnType<typeof createDocument>;

/** Builds the OpenAPI 3.1 description served at /openapi.json (spec §9: version label in `info`). */
export function buildOpenApiDocument(operations: readonly ApiOperation[] = apiOperations): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) {
    const item = paths[op.path] ?? {};
    if (item[op.method]) throw new Error(`duplicate operation ${op.method.toUpperCase()} ${op.path}`);
    item[op.method] = toOpenApiOperation(op);
    paths[op.path] = item;
  }
  const schemas = Object.fromEntries(
    Object.entries({ ...componentSchemas, ...vaultComponentSchemas }).map(([name, c]) => [
      name,
      // zod-openapi renders a component no operation uses on its output side unless told otherwise.
      c.io === 'input' ? c.schema.meta({ unusedIO: 'input' }) : c.schema,
    ]),
  );
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Capability Service',
        version: API_VERSION,
        description: [
          'Quote-first registry of executable capabilities: search, describe, quote, run.',
          '## Scopes',
          "Which scope each operation requires (spec §5.3; the same as each operation's " +
            '`x-required-scopes`, and as `x-scopes` at the top of this document).',
          scopeTableMarkdown(operations),
          '## Input bounds',
          JSON_INPUT_RULES_MARKDOWN,
          '## Versioning',
          CONTRACT_HEADERS_MARKDOWN,
        ].join('\n\n'),
      },
      // Scope → operations that require it ("METHOD path"), generated from the operations.
      'x-scopes': Object.fromEntries(operationsByScope(operations).map((row) => [row.scope, row.operations])),
      // Spec §5.1: HTTP bearer with an API key; operations without auth override this with `security: []`.
      security: [{ bearerAuth: [] }],
      components: {
        schemas,
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'API key: `Authorization: Bearer <API_KEY>`.',
          },
          // Spec §4.7, §5.4: the upload PUT is authorized by the session's own token, not a key.
          uploadToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'upl_ followed by 43 base62 characters',
            description:
              'Upload token of one upload session (`upload_token` of POST /api/capabilities/{slug}/upload-session): ' +
              '`Authorization: Bearer <UPLOAD_TOKEN>`. Authorizes the PUT of that upload only; never reused, never logged.',
          },
        },
      },
      paths,
    },
    { override: keepOpenObjectsOpen },
  );
}
