import {
  type ApiOperation,
  apiOperations,
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
const UNMATCHED: RequestClass = { rateLimit: 'reads', auth: 'public' };

interface Matcher {
  readonly method: string;
  readonly pattern: RegExp;
  readonly params: number;
  readonly requestClass: RequestClass;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `/api/capabilities/{slug}/quote` → `^/api/capabilities/[^/]+/quote/?$`, case-insensitive: express
 * routes that way by default (no strict routing, no case sensitivity), so the class follows the route.
 */
function pathPattern(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map(escapeRegExp)
    .join('[^/]+');
  return new RegExp(`^${source}/?$`, 'i');
}

/**
 * Classifies requests by the operations of the OpenAPI document (contracts `apiOperations`, each with
 * its declared budget): the document and the limiter share one table. Literal paths win over
 * templated ones (`/api/capabilities/crt/run` before `/{slug}/run`).
 */
export class RequestClassifier {
  private readonly matchers: readonly Matcher[];

  constructor(operations: readonly ApiOperation[] = apiOperations) {
    this.matchers = operations
      .map((op) => ({
        method: op.method.toUpperCase(),
        pattern: pathPattern(op.path),
        params: (op.path.match(/\{/g) ?? []).length,
        requestClass: { rateLimit: rateLimitClassOf(op), auth: op.auth.kind, operationId: op.operationId },
      }))
      .sort((a, b) => a.params - b.params);
  }

  /** `path` without the query string (express's `req.path`). HEAD is classified as its GET. */
  classify(method: string, path: string): RequestClass {
    const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    for (const matcher of this.matchers) {
      if (matcher.method === wanted && matcher.pattern.test(path)) return matcher.requestClass;
    }
    return UNMATCHED;
  }
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
  return typeof name === 'string' && isToolName(name) ? MCP_TOOL_BUDGETS[name] : 'reads';
}

function isToolName(name: string): name is McpToolName {
  return Object.hasOwn(MCP_TOOL_BUDGETS, name);
}
