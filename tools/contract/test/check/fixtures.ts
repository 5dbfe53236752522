import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JsonObject } from '../../src/check/manifest';

/** Crafted manifests for the checker's tests: one element of every kind, each overridable. */
export type Element = JsonObject & { id: string; kind: string };

export const requestBody = (): JsonObject => ({
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 64 },
    kind: { type: 'string', enum: ['a', 'b'] },
    note: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['name'],
  additionalProperties: false,
});

export const responseBody = (): JsonObject => ({
  type: 'object',
  properties: {
    id: { type: 'string' },
    status: { type: 'string', enum: ['new', 'done'] },
    note: { type: 'string' },
  },
  required: ['id', 'status'],
});

export const endpoint = (over: JsonObject = {}): Element => ({
  id: 'rest:POST /api/things',
  kind: 'rest_endpoint',
  method: 'POST',
  path: '/api/things',
  operation_id: 'createThing',
  scopes: ['things:write'],
  parameters: { header: null, path: null, query: null },
  request_body: requestBody(),
  responses: { '201': responseBody(), '422': null },
  rate_limit: 'default',
  ...over,
});

export const otherEndpoint = (over: JsonObject = {}): Element => ({
  ...endpoint(),
  id: 'rest:GET /api/things',
  method: 'GET',
  operation_id: 'listThings',
  request_body: null,
  responses: { '200': responseBody() },
  ...over,
});

export const tool = (over: JsonObject = {}): Element => ({
  id: 'mcp:things_create',
  kind: 'mcp_tool',
  name: 'things_create',
  title: 'Create a thing',
  description: 'Creates a thing.',
  scope: 'things:write',
  input_schema: requestBody(),
  output_schema: responseBody(),
  annotations: { readOnlyHint: false },
  ...over,
});

export const mode = (over: JsonObject = {}): Element => ({
  id: 'mode:sync',
  kind: 'execution_mode',
  value: 'sync',
  runnable: true,
  description: 'Runs while the client waits.',
  ...over,
});

export const state = (over: JsonObject = {}): Element => ({
  id: 'state:running',
  kind: 'run_state',
  value: 'running',
  terminal: false,
  transitions: ['failed', 'succeeded'],
  ...over,
});

export const lifecycle = (over: JsonObject = {}): Element => ({
  id: 'lifecycle:quote-run',
  kind: 'lifecycle',
  name: 'quote-run',
  steps: ['rest:POST /api/things', 'rest:GET /api/things'],
  description: 'Quote, then run.',
  ...over,
});

export const errorStatus = (over: JsonObject = {}): Element => ({
  id: 'error:409',
  kind: 'error_status',
  status: 409,
  meaning: 'Conflict.',
  ...over,
});

export const scope = (over: JsonObject = {}): Element => ({
  id: 'scope:things:write',
  kind: 'scope',
  name: 'things:write',
  description: 'Create things.',
  ...over,
});

export const limit = (over: JsonObject = {}): Element => ({
  id: 'limit:crt.limit',
  kind: 'limit',
  name: 'crt.limit',
  value: { min: 1, max: 100 },
  unit: 'items',
  description: 'Page size.',
  ...over,
});

export const allElements = (): Element[] => [
  endpoint(),
  otherEndpoint(),
  tool(),
  mode(),
  state(),
  lifecycle(),
  errorStatus(),
  scope(),
  limit(),
];

export const manifest = (elements: Element[], version = '2026-08-restoration-local'): JsonObject => ({
  format: 'svc-contract-manifest/1',
  version,
  elements: [...elements].sort((a, b) => (a.id < b.id ? -1 : 1)),
});

/** The base elements with those of the same id replaced, and `drop` ids removed. */
export const replaced = (replacements: Element[], drop: string[] = []): Element[] => {
  const byId = new Map(replacements.map((element) => [element.id, element]));
  return allElements()
    .filter((element) => !drop.includes(element.id))
    .map((element) => byId.get(element.id) ?? element)
    .concat(replacements.filter((element) => !allElements().some((base) => base.id === element.id)));
};

/** A temporary directory with the given JSON files written into it. */
export function tempFiles(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'contract-check-'));
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(
      path.join(dir, name),
      typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`,
    );
  }
  return dir;
}
