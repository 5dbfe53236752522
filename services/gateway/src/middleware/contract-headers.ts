import {
  API_VERSION,
  type ApiOperation,
  apiOperations,
  CONTRACT_VERSION_HEADER,
  type ContractDeprecation,
  ContractDeprecations,
  deprecationHeaderValue,
  ExecutionMode,
  MCP_TOOL_NAMES,
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

/** A REST operation's path template as a matcher of request paths, as express matches routes. */
interface RestRoute {
  readonly method: string;
  readonly id: string;
  readonly pattern: RegExp;
  /** Per segment: 0 literal, 1 template parameter (a literal path wins over a template). */
  readonly rank: readonly number[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function restRoute(op: ApiOperation): RestRoute {
  const segments = op.path.split('/').slice(1);
  const isParam = (segment: string) => /^\{[^}]+\}$/.test(segment);
  const source = segments.map((s) => (isParam(s) ? '[^/]+' : escapeRegExp(s))).join('/');
  return {
    method: op.method.toUpperCase(),
    id: restElementId(op),
    // Express's defaults: case-insensitive, a trailing slash allowed.
    pattern: new RegExp(`^/${source}/?$`, 'i'),
    rank: segments.map((s) => (isParam(s) ? 1 : 0)),
  };
}

function compareRank(a: RestRoute, b: RestRoute): number {
  for (let i = 0; i < Math.min(a.rank.length, b.rank.length); i += 1) {
    const diff = (a.rank[i] ?? 0) - (b.rank[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return a.rank.length - b.rank.length;
}

/** JSON Pointer (RFC 6901) of a path item, as a URI fragment (RFC 6901 §6). */
function openApiOperationLink(id: string): string | undefined {
  const match = /^rest:([A-Z]+) (\/.*)$/.exec(id);
  if (match === null) return undefined;
  const [, method = '', path = ''] = match;
  const pointer = ['paths', path, method.toLowerCase()]
    .map((token) => encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1')))
    .join('/');
  return `/openapi.json#/${pointer}`;
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
 * First middleware of the app: every answer carries `Svc-Contract-Version` (the interface's version
 * label, spec §9), and an answer of a deprecated REST operation `Deprecation`, `Sunset` and `Link`
 * (RFC 9745, RFC 8594). Set before any handler runs, so 4xx/5xx answers carry them too. A request
 * is mapped to its operation like the router does (method, HEAD as GET, path template; a literal
 * path wins over a template); with nothing deprecated (today) no matching is done at all.
 * `deprecations` must be checked already (checkDeprecations).
 */
export function contractHeaders(
  deprecations: ContractDeprecations,
  operations: readonly ApiOperation[] = apiOperations,
): GatewayHandler {
  const headersById = new Map(
    Object.entries(deprecations)
      .filter(([id]) => id.startsWith('rest:'))
      .map(([id, d]) => [id, deprecationHeaders(d)] as const),
  );
  const routes = headersById.size === 0 ? [] : operations.map(restRoute).sort(compareRank);
  return (req, res, next) => {
    res.setHeader(CONTRACT_VERSION_HEADER, API_VERSION);
    if (routes.length > 0) {
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      const route = routes.find((r) => r.method === method && r.pattern.test(req.path));
      const headers = route === undefined ? undefined : headersById.get(route.id);
      for (const [name, value] of headers ?? []) res.setHeader(name, value);
    }
    next();
  };
}
