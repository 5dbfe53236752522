import { SCOPES, type Scope } from '../common';
import type { ApiOperation } from './operation';

/**
 * Which operations each scope guards, derived from the operations' `auth` (the same declarations
 * that render `x-required-scopes`), so the document's scope table cannot drift from the operations.
 * An operation that requires several scopes is listed under each of them.
 */

/** `POST /api/capabilities/{slug}/quote`: how an operation is named in the tables. */
export function operationLabel(op: Pick<ApiOperation, 'method' | 'path'>): string {
  return `${op.method.toUpperCase()} ${op.path}`;
}

export interface ScopeRow {
  readonly scope: Scope;
  /** Labels of the operations that require it; empty when it guards nothing on REST yet. */
  readonly operations: string[];
}

/** One row per scope of spec §5.3, in that order, with the operations that require it. */
export function operationsByScope(operations: readonly ApiOperation[]): ScopeRow[] {
  return SCOPES.map((scope) => ({
    scope,
    operations: operations
      .filter((op) => op.auth.kind === 'key' && op.auth.scopes.includes(scope))
      .map(operationLabel),
  }));
}

function cell(labels: readonly string[]): string {
  return labels.length === 0 ? 'nothing on REST yet' : labels.map((label) => `\`${label}\``).join(', ');
}

/**
 * The scope table as Markdown (for `info.description`): public operations, operations any valid key
 * may call, operations authorized by an upload token instead of a key, then one row per scope.
 */
export function scopeTableMarkdown(operations: readonly ApiOperation[]): string {
  const publicOps = operations.filter((op) => op.auth.kind === 'public').map(operationLabel);
  const anyKey = operations
    .filter((op) => op.auth.kind === 'key' && op.auth.scopes.length === 0)
    .map(operationLabel);
  const uploadToken = operations.filter((op) => op.auth.kind === 'upload-token').map(operationLabel);
  const rows = [
    `| (none) | ${cell(publicOps)} |`,
    `| any valid key | ${cell(anyKey)} |`,
    ...(uploadToken.length > 0 ? [`| upload token (no API key) | ${cell(uploadToken)} |`] : []),
    ...operationsByScope(operations).map((row) => `| \`${row.scope}\` | ${cell(row.operations)} |`),
  ];
  return ['| Scope | Operations |', '|---|---|', ...rows].join('\n');
}
