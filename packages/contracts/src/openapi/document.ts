import type { z } from 'zod';
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

/**
 * Every REST operation, each with its exact type (defineOperation). A new resource adds its
 * `*-operations.ts` list here, nothing else; the gateway then fails to compile until it serves it.
 */
const declaredOperations = [
  ...capabilityOperations,
  ...quoteRunOperations,
  ...runOperations,
  ...uploadOperations,
  ...artifactOperations,
  ...accountOperations,
  ...vaultOperations,
  ...mcpOperations,
  ...systemOperations,
] as const;

/** Every REST operation, as one list of ApiOperation (for code that walks them all). */
export const apiOperations: readonly ApiOperation[] = declaredOperations;

/** Any one of the operations above, with its own type. */
export type AnyApiOperation = (typeof declaredOperations)[number];
export type ApiOperationId = AnyApiOperation['operationId'];
/** The operation named `Id`, with its literal path and its own schemas. */
export type ApiOperationById<Id extends ApiOperationId> = Extract<AnyApiOperation, { operationId: Id }>;

/** The operation named `id` (`apiOperation('getRun')`), typed as declared. */
export function apiOperation<Id extends ApiOperationId>(id: Id): ApiOperationById<Id> {
  const found = declaredOperations.find((op): op is ApiOperationById<Id> => op.operationId === id);
  if (found === undefined) throw new Error(`no operation ${id}`);
  return found;
}

/** Every named schema of the document: the common components and the vault's. */
const namedSchemas = { ...componentSchemas, ...vaultComponentSchemas };
const componentNames = new Map<z.ZodType, string>(
  Object.entries(namedSchemas).map(([name, { schema }]) => [schema, name]),
);

/** The component name of a schema (`QuoteRequest`), as the document names it; undefined if none. */
export function componentNameOf(schema: z.ZodType): string | undefined {
  return componentNames.get(schema);
}

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
    Object.entries(namedSchemas).map(([name, c]) => [
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
