/**
 * The contract manifest (contract/manifest.json) and changelog (contract/changelog.json): the
 * machine-readable §9 contract every element kind of which is listed here. The generator writes it,
 * the compatibility checker (src/check) reads two of them and compares.
 */

export const MANIFEST_FORMAT = 'svc-contract-manifest/1';
export const CHANGELOG_FORMAT = 'svc-contract-changelog/1';

/** A JSON Schema object as zod-openapi renders it (the same conversion as /openapi.json). */
export type JsonSchema = { [key: string]: unknown };

/** Deprecation of one element (from CONTRACT_DEPRECATIONS in @svc/contracts). */
export interface Deprecation {
  since: string;
  sunset: string;
  replacement?: string;
  link: string;
}

interface ElementBase {
  id: string;
  deprecated?: Deprecation;
}

export interface RestEndpointElement extends ElementBase {
  kind: 'rest_endpoint';
  /** Upper case: `GET`, `POST`, ... */
  method: string;
  path: string;
  operation_id: string;
  /** Sorted; [] = no API key needed (public or upload-token). */
  scopes: string[];
  parameters: { header: JsonSchema | null; path: JsonSchema | null; query: JsonSchema | null };
  request_body: JsonSchema | null;
  /** Status ("200", "404", ...) → body schema, or null for a raw-bytes body. */
  responses: Record<string, JsonSchema | null>;
  rate_limit: string | null;
}

export interface McpToolElement extends ElementBase {
  kind: 'mcp_tool';
  name: string;
  title: string;
  description: string;
  scope: string | null;
  input_schema: JsonSchema;
  output_schema: JsonSchema | null;
  annotations: Record<string, unknown>;
}

export interface ExecutionModeElement extends ElementBase {
  kind: 'execution_mode';
  value: string;
  runnable: boolean;
  description: string;
}

export interface RunStateElement extends ElementBase {
  kind: 'run_state';
  value: string;
  terminal: boolean;
  /** Sorted target states. */
  transitions: string[];
}

export interface LifecycleElement extends ElementBase {
  kind: 'lifecycle';
  name: string;
  /** Ordered element ids (rest endpoints / mcp tools). */
  steps: string[];
  description: string;
}

export interface ErrorStatusElement extends ElementBase {
  kind: 'error_status';
  status: number;
  meaning: string;
}

export interface ScopeElement extends ElementBase {
  kind: 'scope';
  name: string;
  description: string;
}

export interface LimitElement extends ElementBase {
  kind: 'limit';
  name: string;
  value: number | { min: number; max: number } | string;
  unit: string;
  description: string;
}

export type ManifestElement =
  | RestEndpointElement
  | McpToolElement
  | ExecutionModeElement
  | RunStateElement
  | LifecycleElement
  | ErrorStatusElement
  | ScopeElement
  | LimitElement;

export type ElementKind = ManifestElement['kind'];

export const ELEMENT_KINDS: readonly ElementKind[] = [
  'rest_endpoint',
  'mcp_tool',
  'execution_mode',
  'run_state',
  'lifecycle',
  'error_status',
  'scope',
  'limit',
];

export interface ContractManifest {
  format: typeof MANIFEST_FORMAT;
  version: string;
  /** Sorted by id. */
  elements: ManifestElement[];
}

export type ChangeClass = 'additive' | 'behavioral-risk' | 'breaking';

export const CHANGE_CLASSES: readonly ChangeClass[] = ['additive', 'behavioral-risk', 'breaking'];

export interface ChangelogEntry {
  change_id: string;
  class: ChangeClass;
  /** Element ids the change touches (removed ones included). */
  elements: string[];
  /** YYYY-MM-DD */
  date: string;
  summary: string;
  /** sha256 (hex) of contract/manifest.json's bytes after this change. */
  manifest_sha256: string;
}

export interface ContractChangelog {
  format: typeof CHANGELOG_FORMAT;
  /** Oldest first; the last entry's manifest_sha256 is the committed manifest's. */
  entries: ChangelogEntry[];
}
