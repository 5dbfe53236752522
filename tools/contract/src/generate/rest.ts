import {
  type ApiOperation,
  apiOperations,
  ErrorResponse,
  rateLimitClassOf,
  toJsonSchema,
} from '@svc/contracts';
import type { z } from 'zod';
import type { JsonSchema, RestEndpointElement } from '../manifest-types';

/**
 * REST endpoints from the contracts' ApiOperation list (the same declarations that build
 * /openapi.json). Schemas are inlined JSON Schema 2020-12 from the same zod conversion (contracts
 * toJsonSchema): request side in `input` mode, responses in `output` mode, so a manifest element is
 * complete on its own and a diff shows the field that changed, not a component name.
 */

/** A raw-bytes body has no schema: its accepted media types stand for it. */
function binarySchema(mediaTypes: readonly string[]): JsonSchema {
  return { 'x-media-types': [...mediaTypes].sort() };
}

/**
 * A parameter object's schema. zod-openapi types them as zod core schemas; the operations pass
 * classic zod objects, which toJsonSchema converts the same way the document does.
 */
function schemaOf(schema: z.core.$ZodType | undefined, io: 'input' | 'output'): JsonSchema | null {
  return schema === undefined ? null : toJsonSchema(schema as z.ZodType, { io });
}

/** Every status the operation answers with its body schema (the set /openapi.json lists). */
function responsesOf(op: ApiOperation): Record<string, JsonSchema | null> {
  const responses: Record<string, JsonSchema | null> = {};
  const { success } = op;
  responses[`${success.status}`] =
    'schema' in success ? toJsonSchema(success.schema, { io: 'output' }) : binarySchema(success.binary);
  const errorBody = toJsonSchema(ErrorResponse, { io: 'output' });
  for (const status of op.errors) responses[`${status}`] = errorBody;
  // Every rate-limited operation may answer 429 (operation.ts adds it to the document the same way).
  if (rateLimitClassOf(op) !== 'exempt') responses['429'] = errorBody;
  for (const [status, response] of Object.entries(op.otherResponses ?? {})) {
    if (response) responses[status] = toJsonSchema(response.schema, { io: 'output' });
  }
  return responses;
}

export function restEndpointId(op: Pick<ApiOperation, 'method' | 'path'>): string {
  return `rest:${op.method.toUpperCase()} ${op.path}`;
}

export function restEndpointElement(op: ApiOperation): RestEndpointElement {
  const rateLimit = rateLimitClassOf(op);
  const body = op.body;
  return {
    id: restEndpointId(op),
    kind: 'rest_endpoint',
    method: op.method.toUpperCase(),
    path: op.path,
    operation_id: op.operationId,
    scopes: op.auth.kind === 'key' ? [...op.auth.scopes].sort() : [],
    parameters: {
      header: schemaOf(op.params?.header, 'input'),
      path: schemaOf(op.params?.path, 'input'),
      query: schemaOf(op.params?.query, 'input'),
    },
    request_body:
      body === undefined ? null : 'schema' in body ? toJsonSchema(body.schema) : binarySchema(body.binary),
    responses: responsesOf(op),
    rate_limit: rateLimit === 'exempt' ? null : rateLimit,
  };
}

export function restEndpointElements(
  operations: readonly ApiOperation[] = apiOperations,
): RestEndpointElement[] {
  return operations.map(restEndpointElement);
}
