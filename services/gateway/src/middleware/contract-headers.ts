import {
  API_VERSION,
  type ApiOperation,
  apiOperation,
  apiOperations,
  CONTRACT_VERSION_HEADER,
  type ContractDeprecation,
  ContractDeprecations,
  deprecationHeaderValue,
  ExecutionMode,
  MCP_TOOL_NAMES,
  operationPath,
  RUN_STATES,
  SCOPES,
  sunsetHeaderValue,
} from '@svc/contracts';
import type { GatewayHandler } from '../locals';

/** The element id of a REST operation (contract/manifest.json): `rest:<METHOD> <path template>`. */
export function restElementId(op: Pick<ApiOperation, 'method' | 'path'>): string {
  return `rest:${op.method.toUpperCase()} ${op.path}`;
}

/**
 * The ids of the elements the gateway can tell exist on its own: REST operations, MCP tools, scopes,
 * execution modes, run states. Other kinds (`lifecycle:`, `error:`, `limit:`) are known only to the
 * manifest: `pnpm contract generate` checks those (decisions CD4).
 */
function knownElementIds(operations: readonly ApiOperation[]): {
  readonly known: ReadonlySet<string>;
  readonly checkedPrefixes: ReadonlySet<string>;
} {
  return {
    known: new Set([
      ...operations.map(restElementId),
      ...MCP_TOOL_NAMES.map((name) => `mcp:${name}`),
      ...SCOPES.map((scope) => `scope:${scope}`),
      ...ExecutionMode.options.map((mode) => `mode:${mode}`),
      ...RUN_STATES.map((state) => `state:${state}`),
    ]),
    checkedPrefixes: new Set(['rest', 'mcp', 'scope', 'mode', 'state']),
  };
}

/**
 * Checks the deprecations at start (createApp): each entry's shape and dates (sunset ≥ since,
 * RFC 9745 §3), and that the element and its replacement exist. Throws one Error naming every
 * problem, so a bad entry fails the gateway's start rather than sending wrong headers.
 */
export function checkDeprecations(
  input: Readonly<Record<string, ContractDeprecation>>,
  operations: readonly ApiOperation[] = apiOperations,
): ContractDeprecations {
  const parsed = ContractDeprecations.safeParse(input);
  const problems: string[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
  if (parsed.success) {
    const { known, checkedPrefixes } = knownElementIds(operations);
    const exists = (id: string) => !checkedPrefixes.has(id.slice(0, id.indexOf(':'))) || known.has(id);
    for (const [id, d] of Object.entries(parsed.data)) {
      if (!exists(id)) problems.push(`${id}: no such contract element`);
      if (d.replacement !== undefined && !exists(d.replacement)) {
        problems.push(`${id}.replacement: no such contract element: ${d.replacement}`);
      }
    }
  }
  if (problems.length > 0) {
    throw new Error(`invalid contract deprecations (CONTRACT_DEPRECATIONS):\n- ${problems.join('\n- ')}`);
  }
  return parsed.data ?? {};
}

/** Where the OpenAPI document is served (its own operation), which the successor links point into. */
const OPENAPI_DOCUMENT_PATH = operationPath(apiOperation('openApiDocument'), {});

/** JSON Pointer (RFC 6901) of a path item, as a URI fragment (RFC 6901 §6). */
function openApiOperationLink(id: string): string | undefined {
  const match = /^rest:([A-Z]+) (\/.*)$/.exec(id);
  if (match === null) return undefined;
  const [, method = '', path = ''] = match;
  const pointer = ['paths', path, method.toLowerCase()]
    .map((token) => encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1')))
    .join('/');
  return `${OPENAPI_DOCUMENT_PATH}#/${pointer}`;
}

/** The header values of one deprecated REST element, computed once. */
function deprecationHeaders(d: ContractDeprecation): ReadonlyArray<readonly [string, string]> {
  const links = [`<${d.link}>; rel="deprecation"`];
  const successor = d.replacement === undefined ? undefined : openApiOperationLink(d.replacement);
  if (successor !== undefined) links.push(`<${successor}>; rel="successor-version"`);
  return [
    ['Deprecation', deprecationHeaderValue(d)],
    ['Sunset', sunsetHeaderValue(d)],
    ['Link', links.join(', ')],
  ];
}

/**
 * Near the top of the app, right after the request is matched to its operation
 * (routing/serve-routes.ts): every answer carries `Svc-Contract-Version` (the interface's version
 * label, spec §9), and an answer of a deprecated REST operation `Deprecation`, `Sunset` and `Link`
 * (RFC 9745, RFC 8594). Set before any handler runs, so 4xx/5xx answers carry them too. The
 * operation is the one the request matched (`res.locals.operation`: HEAD as GET, a literal path
 * before a template), never a path matched a second time. `deprecations` must be checked already
 * (checkDeprecations).
 */
export function contractHeaders(deprecations: ContractDeprecations): GatewayHandler {
  const headersById = new Map(
    Object.entries(deprecations)
      .filter(([id]) => id.startsWith('rest:'))
      .map(([id, d]) => [id, deprecationHeaders(d)] as const),
  );
  return (_req, res, next) => {
    res.setHeader(CONTRACT_VERSION_HEADER, API_VERSION);
    const { operation } = res.locals;
    if (headersById.size > 0 && operation !== undefined) {
      for (const [name, value] of headersById.get(restElementId(operation)) ?? []) res.setHeader(name, value);
    }
    next();
  };
}
