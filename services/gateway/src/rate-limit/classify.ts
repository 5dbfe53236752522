import {
  type ApiOperation,
  MCP_TOOL_BUDGETS,
  type McpToolName,
  type RateLimitBudget,
  type RateLimitClass,
  rateLimitClassOf,
} from '@svc/contracts';

/** How a request is limited, and how it authenticates (which decides whose counter it spends). */
export interface RequestClass {
  readonly rateLimit: RateLimitClass;
  /** `key`: counted per API key once verified; anything else per source address. */
  readonly auth: ApiOperation['auth']['kind'];
  /** The matched operation, for logs; undefined for a path no operation serves (404/405). */
  readonly operationId?: string;
}

/** A request no operation serves (unknown path, or a method the path does not take): a public read. */
export const UNMATCHED: RequestClass = { rateLimit: 'reads', auth: 'public' };

const classes = new WeakMap<ApiOperation, RequestClass>();

/**
 * The class of a request for `operation` (the one it matched: routing/serve-routes.ts), from its
 * declared budget and auth, so the OpenAPI document and the limiter cannot disagree; UNMATCHED when
 * no operation serves the request. Throws for an operation other than GET that declares no budget
 * (the routes check every operation at start).
 */
export function requestClassOf(operation: ApiOperation | undefined): RequestClass {
  if (operation === undefined) return UNMATCHED;
  const known = classes.get(operation);
  if (known !== undefined) return known;
  const made: RequestClass = {
    rateLimit: rateLimitClassOf(operation),
    auth: operation.auth.kind,
    operationId: operation.operationId,
  };
  classes.set(operation, made);
  return made;
}

/**
 * The budget one JSON-RPC message posted to /mcp spends from: a `tools/call` that of its tool's REST
 * twin; anything else (initialize, tools/list, ping, an unknown tool, a notification) `reads`.
 */
export function mcpMessageBudget(message: unknown): RateLimitBudget {
  if (typeof message !== 'object' || message === null || !('method' in message)) return 'reads';
  if (message.method !== 'tools/call' || !('params' in message)) return 'reads';
  const params = message.params;
  if (typeof params !== 'object' || params === null || !('name' in params)) return 'reads';
  const name = params.name;
  return (typeof name === 'string' && isToolName(name) ? MCP_TOOL_BUDGETS[name] : undefined) ?? 'reads';
}

function isToolName(name: string): name is McpToolName {
  return Object.hasOwn(MCP_TOOL_BUDGETS, name);
}
